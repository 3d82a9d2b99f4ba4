/**
 * Features the portal may only promise once they exist (issue 21, item 12). A page shows a link, a
 * navigation anchor, a home section or a figure about one of them only when it is `true` here: set it
 * when the feature ships, and its entries appear with it. Their texts stay in the catalogs.
 */
export const SHIPPED = {
  copyTrading: true,
  strategies: true,
  contests: false,
  news: false,
  /** Linking MT4 and MT5 accounts. */
  metaTrader: false,
} as const satisfies Record<string, boolean>;

export type TUpcomingFeature = keyof typeof SHIPPED;

/** Whether a feature exists, so that the portal may show what leads to it. */
export function shipped(feature: TUpcomingFeature | undefined): boolean {
  return feature === undefined || SHIPPED[feature];
}

/** The entries of a list that lead to no feature still to come. */
export function shippedOnly<T extends { feature?: TUpcomingFeature }>(items: readonly T[]): T[] {
  return items.filter((item) => shipped(item.feature));
}
