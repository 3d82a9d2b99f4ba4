import type { TUnwrapped } from './envelope';
import type { TRouteInput, TRouteName, TRouteOutput } from './routes';

/**
 * What the server hands the portal's server renderer for each request: the host (Fastify) owns
 * sessions, files and the database; the renderer owns routes and markup.
 */
export interface TLegalDocument {
  html: string;
  /** False when the language has no text of its own and the English text is shown. */
  translated: boolean;
  title: string;
  /** Route language of the text shown: the requested one, or `en` when it has no text of its own. */
  lang: string;
  /**
   * Route language of the governing version (`en`); a text in another language is a translation of
   * it, shown under a notice that the governing version prevails.
   */
  governing: string;
  /**
   * Route language of the version a translation was made from when that is not the governing one
   * (Traditional Chinese is translated from the Simplified Chinese version).
   */
  translatedFrom?: string;
}

export type TLegalDocumentName = 'privacy' | 'privacy-google' | 'termsofuse';

export interface TWebHost {
  /** The signed-in trader of a request, checked against the session store. */
  currentUser(request: Request): Promise<{ name: string } | null>;
  legalDocument(lang: string, name: TLegalDocumentName): Promise<TLegalDocument>;
  /**
   * Calls a read route of the gateway as the page's visitor (their session cookie, address and
   * language): what a signed-in page renders on the server goes through the same checks, limits and
   * answers as the browser's own calls. A route that changes state is refused.
   */
  callRoute<N extends TRouteName>(
    request: Request,
    lang: string,
    name: N,
    input: TRouteInput<N>,
  ): Promise<TUnwrapped<TRouteOutput<N> | null>>;
}

export interface TRenderResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type TRenderFunction = (
  request: Request,
  host: TWebHost,
  info: { device: 'mobile' | 'desktop' },
) => Promise<TRenderResult>;
