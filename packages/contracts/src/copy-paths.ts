/**
 * Paths of copy trading's routes (schema-free, for the browser): the spec 7.8 `follow` family.
 * Leader discovery and profiles are public; everything else needs a signed-in trader.
 */
export const COPY_PATHS = {
  /** Public: leaders with their statistics, sorted and filtered (the discovery page). */
  followleaders: '/api/v1/follow/leaders',
  /** Public: one leader's profile, statistics, equity curve, symbols and delayed open positions. */
  followleader: '/api/v1/follow/leader',
  /** What following a leader would have given over the last 90 days with a mode and an amount. */
  followwhatif: '/api/v1/follow/whatif',
  /** Starts copying: opens a copy account, funds it (transfer_follow_out) and starts the relation. */
  followstart: '/api/v1/follow/start',
  /** Changes a copy's mode and risk controls. */
  followupdate: '/api/v1/follow/update',
  followpause: '/api/v1/follow/pause',
  followresume: '/api/v1/follow/resume',
  /** Stops copying: settles the fee, closes or keeps the copies, returns the free money (transfer_follow_in). */
  followstop: '/api/v1/follow/stop',
  /** Adds money to a copy (transfer_follow_out) or takes some back (transfer_follow_in). */
  followfunds: '/api/v1/follow/funds',
  /** The trader's copies, one per leader followed (and the stopped ones). */
  followmine: '/api/v1/follow/mine',
  /** The copy parity report of one copy: leader beside follower, trade by trade, with the skips. */
  followparity: '/api/v1/follow/parity',
  /** Applies to lead with one of the trader's main accounts. */
  followapply: '/api/v1/follow/apply',
  /** The leader's own settings: pause new followers, minimum copy amount, fee, positions delay, bio. */
  followleadersettings: '/api/v1/follow/leadersettings',
  /** The leader dashboard: the trader's leader accounts, their followers and fee earnings. */
  followdashboard: '/api/v1/follow/dashboard',
} as const;
