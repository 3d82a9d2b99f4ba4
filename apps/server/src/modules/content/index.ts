/** The content module's public face: the only file other modules and the HTTP layer import. */
export type { TContentPorts } from './feedback';
export { submitFeedback } from './feedback';
export { legalDocument } from './legal';
export { pageViewCount, recordPageView } from './page-views';
