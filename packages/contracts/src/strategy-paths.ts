/** Paths of the strategy bots' routes (schema-free, for the browser): the spec 7.8 `strategy` family. */
export const STRATEGY_PATHS = {
  /** Before launch: the levels and the worst case of a bot's parameters (nothing is started). */
  strategypreview: '/api/v1/strategy/preview',
  /** Before launch: the bot run over the stored candles of the last 7, 30 or 90 days. */
  strategybacktest: '/api/v1/strategy/backtest',
  /** Creates a bot (spec 7.10 "create strategy"): a strategy account funded from the main account, the bot started on it. */
  strategycreate: '/api/v1/strategy/create',
  /** The trader's bots (spec 7.10 "list strategy"). */
  strategylist: '/api/v1/strategy/list',
  /** One bot with what it holds and its log. */
  strategydetail: '/api/v1/strategy/detail',
  /** Stops a bot (spec 7.10 "stop strategy"), closing its positions (reason 6) or keeping them. */
  strategystop: '/api/v1/strategy/stop',
} as const;
