// uPlot (MIT, https://github.com/leeoniya/uPlot) is put into the page whole: tsup reads its minified script and
// style sheet from the uplot package at build time (tsup.config.ts), so `backupstats/report` needs nothing at run
// time and the page loads nothing from the network.
declare const BACKUPSTATS_UPLOT_JS: string;
declare const BACKUPSTATS_UPLOT_CSS: string;

/** uPlot's minified script, its license banner first. */
export const UPLOT_JS: string = BACKUPSTATS_UPLOT_JS;
/** uPlot's style sheet. */
export const UPLOT_CSS: string = BACKUPSTATS_UPLOT_CSS;
