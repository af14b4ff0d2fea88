/**
 * `cms init --template website`: a site shaped like Payload's website template (pages with a hero and a
 * block layout, posts in rich text, projects, categories, comments, media with image sizes, header,
 * footer and settings), a seed file that `cms serve` runs once on an empty database (src/cli/seed.ts),
 * and a small frontend in site/ that the server itself serves at `/` (docs/templates.md). The files
 * are kept as text so they are written out exactly as a project would see them.
 */
import config from './website-config.txt' with { type: 'text' };
import seed from './website-seed.txt' with { type: 'text' };
import siteHTML from './site/index.html.txt' with { type: 'text' };
import siteJS from './site/site.js.txt' with { type: 'text' };
import siteCSS from './site/site.css.txt' with { type: 'text' };

export const WEBSITE_TEMPLATE: Record<string, string> = {
  'cms.config.ts': config,
  'cms.seed.ts': seed,
  'site/index.html': siteHTML,
  'site/site.js': siteJS,
  'site/site.css': siteCSS,
};
