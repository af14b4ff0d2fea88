/** The editor's styles, added to the page by its chunk so the admin's first load carries none of them. */
export const EDITOR_CSS = `
.rt-editor{border:1px solid var(--border,#ccc);border-radius:6px;background:var(--bg,#fff)}
.rt-toolbar{display:flex;flex-wrap:wrap;gap:2px;padding:4px;border-bottom:1px solid var(--border,#ccc);position:sticky;top:0;background:inherit;z-index:1}
.rt-button{min-width:32px;min-height:32px;padding:2px 6px;border:1px solid transparent;border-radius:4px;background:none;font:inherit;cursor:pointer}
.rt-button[aria-pressed=true]{background:var(--accent-soft,#dbeafe);border-color:var(--accent,#2563eb)}
.rt-button:disabled{opacity:.4;cursor:default}
.rt-content{min-height:8rem;padding:.5rem .75rem;outline:none;overflow-wrap:anywhere}
.rt-content:focus-visible{box-shadow:inset 0 0 0 2px var(--accent,#2563eb)}
.rt-bold{font-weight:bold}.rt-italic{font-style:italic}.rt-underline{text-decoration:underline}.rt-strike{text-decoration:line-through}
.rt-code{font-family:monospace;background:rgba(0,0,0,.06);padding:0 .2em}
.rt-content li.rt-checked,.rt-content li.rt-unchecked{list-style:none;position:relative;padding-left:1.5em}
.rt-content li.rt-checked::before{content:'☑';position:absolute;left:0}.rt-content li.rt-unchecked::before{content:'☐';position:absolute;left:0}
.rt-content blockquote{border-left:3px solid var(--border,#ccc);margin:0;padding-left:.75rem}
.rt-embed{display:block;margin:.5rem 0;padding:.4rem;border:1px dashed var(--border,#ccc);border-radius:4px;font-size:.85em;user-select:none}
.rt-embed img{display:block;max-width:100%;max-height:12rem;margin-bottom:.25rem}
.rt-embed-inline{display:inline-block;margin:0 .2em;padding:0 .3em}
.rt-block-embed{display:block;margin:.5rem 0}.rt-block-embed-inline{display:inline;margin:0 .15em}
.rt-block{border:1px solid var(--border,#ccc);border-radius:4px;padding:.4rem .6rem;background:var(--bg-soft,rgba(0,0,0,.02))}
.rt-block.has-error,.rt-inline-block.has-error .rt-chip{border-color:var(--danger,#dc2626)}
.rt-block-head{display:flex;align-items:center;gap:.5rem;margin-bottom:.25rem}.rt-block-head .icon-button{margin-left:auto}
.rt-chip{display:inline-flex;gap:.35em;align-items:baseline;padding:0 .4em;border:1px solid var(--border,#ccc);border-radius:999px;background:none;font:inherit;font-size:.9em;cursor:pointer}
.rt-dialog,.rt-doc-chooser{display:grid;gap:.4rem}
.rt-dialog fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.rt-button .icon{display:block;margin:auto}
.rt-floating{position:fixed;z-index:20;transform:translate(-50%,calc(-100% - 6px))}
.rt-floating .rt-toolbar{border:1px solid var(--border,#ccc);border-radius:6px;background:var(--panel,#fff);box-shadow:0 4px 14px rgba(0,0,0,.18);position:static;flex-wrap:nowrap}
.rt-slash-menu{position:fixed;z-index:20;margin:0;padding:4px;list-style:none;min-width:12rem;max-height:16rem;overflow:auto;border:1px solid var(--border,#ccc);border-radius:6px;background:var(--panel,#fff);box-shadow:0 4px 14px rgba(0,0,0,.18)}
.rt-slash-menu li{padding:.3rem .6rem;border-radius:4px;cursor:pointer}
.rt-slash-menu li[aria-selected=true]{background:var(--accent-soft,#dbeafe)}
@media (max-width:480px){.rt-button{min-width:40px;min-height:40px}}
`;
