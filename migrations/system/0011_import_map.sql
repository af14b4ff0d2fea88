CREATE TABLE `_cms_import_map` (
	`source` text NOT NULL,
	`sourceId` text NOT NULL,
	`collection` text NOT NULL,
	`docId` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`source`, `sourceId`)
);
