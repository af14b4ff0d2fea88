CREATE TABLE "_cms_import_map" (
	"source" text NOT NULL,
	"sourceId" text NOT NULL,
	"collection" text NOT NULL,
	"docId" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "_cms_import_map_source_sourceId_pk" PRIMARY KEY("source","sourceId")
);
