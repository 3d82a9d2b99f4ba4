/** The charts module's public face: the only file other modules and the HTTP layer import. */
export { chartDrawings, saveChartDrawings, type TChartsPorts } from './drawings';
export { chartLayout, saveChartLayout } from './layout';
