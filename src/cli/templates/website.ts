/**
 * `cms init --template website`: a marketing site shaped like Payload's website template (pages with a
 * hero and a block layout, posts in rich text, categories, media with image sizes, header and footer,
 * live preview), and a seed file that `cms serve` runs once on an empty database (src/cli/seed.ts).
 * The two files are kept as text so they are written out exactly as a project would see them.
 */
import config from './website-config.txt' with { type: 'text' };
import seed from './website-seed.txt' with { type: 'text' };

export const WEBSITE_TEMPLATE: Record<string, string> = { 'cms.config.ts': config, 'cms.seed.ts': seed };
