// The contract between Python and this view, generated from
// ugentopoly_widget/widget/contract/ (schema: widget/contract.schema.json) by
//   python -m ugentopoly_widget.widget.contract_export --write
// Do not edit: change widget/contract/ and run that. tests/test_contract.py checks it.
// Contract of ugentopoly_widget 0.1.0.

/** The traits the view may set (model.set; checked in Python). */
export type ViewWrites = "lang" | "bot_delay" | "paused" | "presentation";

export type ActRequest = {
  type: "act";
  action: Action;
  seq: number;
};

/** an action a person can take (engine/actions.py, its dict form) */
export type Action = SimpleAction | PositionAction | BidAction | TaxAction | SellDownAction | ProposeTradeAction;

export type AdviceError = {
  seq: number;
  id: number;
  offer?: ProposeTradeAction;
  status: "error";
  text: Texts;
};

/** The trade dialog's advice (widget/trade_advice.py). */
export type AdviceRated = {
  seq: number;
  id: number;
  offer: ProposeTradeAction;
  status: "quick" | "done";
  sides: AdviceSide[];
  fair_cash: number | null;
  fair_note: "even" | "gains_at_most" | "loses_at_least" | "not_asked";
  rollouts: number;
  text: Texts;
};

export type AdviceSide = {
  role: "proposer" | "partner";
  player: number;
  name: string;
  p_without: number;
  p_with: number;
  delta: number;
  delta_se: number;
  delta_low: number;
  delta_high: number;
  cash_paid: number;
  interest_due: number;
  rent_before: number | null;
  rent_after: number | null;
  rent_change: number | null;
  payback_rolls: number | null;
  built_rent_change: number | null;
  built_payback_rolls: number | null;
};

export type AdviceWorking = {
  seq: number;
  id: number;
  offer: ProposeTradeAction;
  status: "working";
};

export type AgainHelp = {
  reason: "card" | "double";
  doubles: number;
  max: number | null;
};

/** luck or skill: waiting, the analysis so far, refused, or off */
export type Analysis = AnalysisWaiting | AnalysisReport | AnalysisError | Empty;

export type AnalysisError = {
  on: true;
  status: "error";
  seq: number;
  text: Texts;
};

/** A player's summary (results.PlayerSummary). */
export type AnalysisPlayer = {
  player: number;
  name: string;
  result: number;
  luck: number;
  luck_se: number;
  skill_loss: number;
  skill_loss_se: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  adjusted: number;
  adjusted_low: number;
  adjusted_high: number;
};

/** One step of the chart: a player's luck and skill loss summed up to a turn. */
export type AnalysisPoint = {
  turn: number;
  index: number;
  /** per player, points, summed so far */
  luck: number[];
  /** per player, points lost, summed so far */
  skill: number[];
};

/** The analysis of the game up to action ``upto`` (``seq``: the state it was made for). */
export type AnalysisReport = {
  on: true;
  status: "running" | "done";
  seq: number;
  /** actions analysed: the record's first upto */
  upto: number;
  /** actions the game has (upto < actions: more to come) */
  actions: number;
  complete: boolean;
  /** per option of a decision */
  rollouts: number;
  /** per outcome of a roll or card */
  chance_rollouts: number;
  /** made in the browser site's slices, with its smaller budget */
  browser: boolean;
  thresholds: AnalysisThresholds;
  players: AnalysisPlayer[];
  series: AnalysisPoint[];
  mistakes: Mistake[];
  /** decisions judged */
  decisions: number;
  /** rolls and cards measured */
  chances: number;
  verdict: LiveVerdict | null;
  luck: LiveLuck | null;
  explain: Texts;
};

/** The Analysis tab's switch (off by default, as the win bar). */
export type AnalysisRequest = {
  type: "analysis";
  on: boolean;
  seq?: number;
};

export type AnalysisThresholds = {
  inaccuracy: number;
  mistake: number;
  blunder: number;
};

export type AnalysisWaiting = {
  on: true;
  status: "waiting";
  seq: number;
  /** played in the browser site's slices, with its smaller budget (the view says so) */
  browser?: boolean;
  /** per option of a decision */
  rollouts?: number;
  /** per outcome of a roll or card */
  chance_rollouts?: number;
};

export type Area = {
  colour: string;
  house_price: number | null;
  positions: number[];
};

export type AuctionData = {
  /** None: a house (housing shortage) */
  position: number | null;
  item: "property" | "house";
  high_bid: number;
  leader: number | null;
  min_bid: number;
  bidders: number[];
};

export type AuctionDecision = {
  kind: "auction";
  player: number;
  data: AuctionData;
};

export type AuctionHelp = {
  position: number | null;
  bidders: number[];
  list_price: number | null;
};

export type Batch = {
  actions: number;
  from: number;
  to: number;
};

export type BidAction = {
  type: "bid";
  player: number;
  amount: number;
};

export type BidRange = {
  min: number;
  max: number;
};

/** The ``board_data`` trait: the board and its rules, sent once per game (widget/data.py). */
export type BoardData = {
  name: string;
  /** the board's display name */
  titles: Texts;
  profile: string;
  size: number;
  salary: number;
  tiles: Tile[];
  areas: { [key: string]: Area };
  /** every card's text by its id, both languages */
  cards: { [key: string]: Card };
  hotel_level: number;
  rules: BoardRules;
};

export type BoardRules = {
  mode: GameMode;
  trading: boolean;
  mortgages: boolean;
  buildings: Buildings;
  street_rent: StreetRent;
  turn_timer_seconds: number | null;
  time_limit_minutes: number | null;
  bank_houses: number | null;
  bank_hotels: number | null;
};

export type BotsRequest = {
  type: "bots";
  paused?: boolean;
  delay?: number;
  seq?: number;
};

export type Buildings = "none" | "classic" | "unlimited";

export type BuyData = {
  position: number;
  price: number;
};

export type BuyDecision = {
  kind: "buy";
  player: number;
  data: BuyData;
};

export type Card = {
  deck: Deck;
  en: string;
  nl: string;
};

export type Convergence = {
  rolls: number[];
  tv: number[];
  expected: number[];
};

/** ``w.show_heat(values, label)``: one value per tile. */
export type CustomHeat = {
  values: number[];
  label: string;
  min: number;
  max: number;
  /** the colour of each tile, chosen in Python */
  fills: string[];
  /** the ink that reads on each fill */
  inks: string[];
  palette: string[];
};

export type DebtData = {
  amount: number;
  /** a player, the bank or the pot */
  creditor: number | "bank" | "pot";
  reason: string;
};

export type DebtDecision = {
  kind: "debt";
  player: number;
  data: DebtData;
};

/** whose decision it is, about what (engine/state.py Decision) */
export type Decision = TurnDecision | BuyDecision | AuctionDecision | TaxDecision | JailFineDecision | TradeDecision | MortgagedDecision | DebtDecision | HouseOfferDecision | PlaceHouseDecision | GameOverDecision;

export type Deck = "CHANCE" | "CHEST";

export type DiceStats = {
  totals: number[];
  counts: number[];
  exact: number[];
  ways: number[];
  faces: number;
  rolls: number;
};

export type DrawnCard = {
  deck: Deck;
  id: string;
  player: number;
  text: string;
};

/** ``{}``: a trait that is off (no error, no heat layer, no fan ...). */
export type Empty = Record<string, never>;

/** A refusal or an error (widget/errors.py plain_error). A request's ``seq`` below the game's is stale (quiet), above it unknown or future. */
export type ErrorInfo = {
  /** for programmers (also in w.errors) */
  message: string;
  seq: number;
  /** numbers the errors: a new n is news */
  n: number;
  /** the refusal in plain words */
  text: Texts;
  /** a stale request: the view drops it */
  quiet: boolean;
};

export type Fan = {
  player: number;
  from: number;
  from_jail: boolean;
  /** [position, probability] */
  arrows: [number, number][];
  jail: number;
  seq: number;
  landed: number | null;
  landed_jail: boolean;
  strategy: JailStrategy;
};

export type GameMode = "long" | "short" | "timed";

export type GameOverData = {
  reason: string;
};

export type GameOverDecision = {
  kind: "game_over";
  player: null;
  data: GameOverData;
};

/** The ``state`` trait during a game: replaced whole on every change, sent as JSON text (widget/data.py state_snapshot). */
export type GameState = {
  /** numbers the game's states; every request carries the last seen */
  seq: number;
  /** the seq of this game's first state: the same for all its states, new for a new game */
  game_start: number;
  phase: "play" | "over";
  turn: number;
  current: number;
  decision: Decision;
  /** exactly the actions the view may offer */
  legal: Action[];
  players: Player[];
  /** per tile */
  owner: (number | null)[];
  /** buildings per tile */
  level: number[];
  /** mortgaged positions */
  mortgaged: number[];
  pot: number;
  houses_left: number | null;
  hotels_left: number | null;
  dice: number[] | null;
  rolls: number;
  log: LogPiece;
  lang: Lang;
  can_undo: boolean;
  can_trade: boolean;
  /** an auction */
  bid?: BidRange;
  /** the turn timer, before a roll */
  timer?: Timer;
  /** a timed game's clock, seconds */
  time_left?: number;
  last?: Last;
  help?: Help;
  /** net worth per player sampled once per turn, [turn, worth0, ...]; once the game is over */
  history?: number[][];
  ranking?: RankRow[];
  winners?: number[];
};

/** the heat layer: w.show_heat's, a probability mode's, or none */
export type Heat = CustomHeat | ProbabilityHeat | Empty;

export type HeatMode = "exact" | "observed" | "difference" | "next";

export type HeatNote = {
  pos: number;
  value: number;
  text: Texts;
};

export type HeatNotes = {
  hot?: HeatNote;
  cold?: HeatNote;
};

/** The figures of the rule behind the current decision (widget/explain.py); absent when there is nothing to add. The per-tile buttons' figures are the board's (Tile house_price, sell_refund, mortgage, lift_cost). */
export type Help = {
  jail?: JailHelp;
  again?: AgainHelp;
  tax?: TaxHelp;
  rent?: RentHelp;
  auction?: AuctionHelp;
  house?: HouseHelp;
  /** the lots the even-build rule holds back, by group */
  even?: number[][];
};

export type HouseHelp = {
  position: number;
  price: number;
  level: number;
};

export type HouseOfferData = {
  position: number;
  price: number;
};

export type HouseOfferDecision = {
  kind: "house_offer";
  player: number;
  data: HouseOfferData;
};

export type JailComparison = {
  groups: JailGroup[];
  per: Per;
  short: number[];
  long: number[];
  same: boolean;
};

export type JailFineData = {
  fine: number;
};

export type JailFineDecision = {
  kind: "jail_fine";
  player: number;
  data: JailFineData;
};

export type JailGroup = {
  key: string;
  colour: string | null;
  positions: number[];
  label: Texts;
};

export type JailHelp = {
  try: number;
  of: number | null;
  fine: number | null;
  cards: number;
};

export type JailStrategy = "short" | "long";

export type Lang = "en" | "nl";

export type LangRequest = {
  type: "lang";
  lang: Lang;
  seq?: number;
};

/** The events since the previous state, compact, for the narration (data.narrate); absent when nothing new happened (undo, a language switch). After a play_bots batch it has ``batch`` and the view tells the batch in one line. */
export type Last = {
  actor: number | null;
  /** how many events */
  n: number;
  dice?: number[];
  moves?: Move[];
  /** [player, delta] */
  money?: [number, number][];
  card?: DrawnCard;
  jail?: number[];
  turn_passed?: true;
  /** a play_bots batch, told in one line */
  batch?: Batch;
};

export type LinearRentHelp = {
  kind: "street";
  rent: number;
  per_house: number;
};

/** The last roll (or card) measured: "lucky roll: +7 points". */
export type LiveLuck = {
  index: number;
  turn: number;
  player: number;
  kind: "roll" | "card";
  luck: number;
  luck_se: number;
  text: Texts;
};

/** The last decision judged: "Bob: mistake, −6 ± 2 points: selling New York Avenue; best: keep it". */
export type LiveVerdict = {
  /** the action's index in the game's record */
  index: number;
  turn: number;
  player: number;
  verdict: VerdictName;
  loss: number;
  loss_se: number;
  text: Texts;
};

export type LobbyBoard = {
  /** 'bundled:<profile>' or 'custom' */
  id: string;
  label: string;
};

/** The ``lobby`` trait: the setup screen's choices (widget/data.py lobby_data). */
export type LobbyData = {
  profiles: LobbyProfile[];
  boards: LobbyBoard[];
  default_profile: string;
  default_board: string | null;
  tokens: string[];
  colours: string[];
  seat_kinds: SeatKind[];
  /** each bot level of seat_kinds with its sentence for a class (engine.bots.LEVELS): the seat menu's tooltip */
  seat_help: { [key: string]: Texts };
  flags: {
    free_parking_pot: Texts;
    auction_on_decline: Texts;
    income_tax_choice: Texts;
    doubles_roll_again: Texts;
    jail_card_auto: Texts;
    release_after_three_tries: Texts;
    card_move_to_jail_tile_jails: Texts;
    end_when_money_reaches_zero: Texts;
    rank_by_net_worth: Texts;
  };
  modes: GameMode[];
};

export type LobbyProfile = {
  name: string;
  label: Texts;
  min_players: number;
  max_players: number;
  starting_money: number;
  mode: GameMode;
  turn_timer_seconds: number | null;
  time_limit_minutes: number | null;
  flags: {
    free_parking_pot: boolean;
    auction_on_decline: boolean;
    income_tax_choice: boolean;
    doubles_roll_again: boolean;
    jail_card_auto: boolean;
    release_after_three_tries: boolean;
    card_move_to_jail_tile_jails: boolean;
    end_when_money_reaches_zero: boolean;
    rank_by_net_worth: boolean;
  };
};

/** The ``state`` trait before the first game (the lobby). */
export type LobbyState = {
  seq: number;
  phase: "lobby";
};

/** Another language: the log's lines in it (the state itself is not sent again). */
export type LogLangMessage = {
  type: "log_lang";
  lang: Lang;
  epoch: number;
  base: null;
  total: number;
  start: number;
  lines: string[];
};

export type LogMessage = {
  type: "log";
  epoch: number;
  base: null;
  total: number;
  start: number;
  lines: string[];
};

export type LogPageMessage = {
  type: "log_page";
  epoch: number;
  start: number;
  lines: string[];
};

/** The log lines since the previous state (see data.LogCache.message). */
export type LogPiece = {
  epoch: number;
  /** lines the view must have for these to follow on; None: they replace the view's lines */
  base: number | null;
  total: number;
  /** the number of the first line sent */
  start: number;
  lines: string[];
};

/** The whole kept tail (a LogMessage), or with ``before`` the page before that line (a LogPageMessage). */
export type LogRequest = {
  type: "log";
  before?: number;
  seq?: number;
};

/** a custom message from Python to the views (widget.send) */
export type Message = PictureMessage | LogMessage | LogPageMessage | LogLangMessage | PositionMessage;

/** One of the biggest mistakes, worst first; its index opens the position before it. */
export type Mistake = {
  index: number;
  turn: number;
  player: number;
  verdict: VerdictName;
  loss: number;
  loss_se: number;
  chosen: string;
  best: string;
  text: Texts;
};

export type MortgagedData = {
  position: number;
  value: number;
  interest: number;
};

export type MortgagedDecision = {
  kind: "mortgaged";
  player: number;
  data: MortgagedData;
};

/** [player, start, end, steps, via] of one move */
export type Move = [number, number, number, number, string];

export type OfferSide = {
  properties?: number[];
  cash?: number;
  cards?: string[];
};

export type Per = "roll" | "turn";

export type PictureMessage = {
  type: "picture";
  /** the board with its heat layer (w.board_picture()) */
  svg: string;
};

/** Answered with a PictureMessage. */
export type PictureRequest = {
  type: "picture";
  seq?: number;
};

export type PlaceHouseData = {
  positions: number[];
};

export type PlaceHouseDecision = {
  kind: "place_house";
  player: number;
  data: PlaceHouseData;
};

export type Player = {
  name: string;
  token: string;
  colour: string;
  cash: number;
  position: number;
  in_jail: boolean;
  jail_cards: string[];
  bankrupt: boolean;
  in_park: boolean;
  seat: SeatKind;
};

export type PositionAction = {
  type: "build" | "sell" | "mortgage" | "unmortgage" | "lift" | "keep" | "place";
  player: number;
  position: number;
};

/** The position before a past decision, for a read-only look (its ``legal`` is empty). */
export type PositionMessage = {
  type: "position";
  index: number;
  turn: number;
  state: GameState;
  text: Texts;
  seq?: number;
};

/** The position before action ``index`` of the record: a PositionMessage. */
export type PositionRequest = {
  type: "position";
  index: number;
  seq: number;
};

/** A probability mode's heat layer (widget/odds.py heat_payload): a share of rolls (or turns) per tile, In Jail apart; the fills are opaque colours chosen in Python, the view only paints them; notes say why the hottest and coldest tiles are. */
export type ProbabilityHeat = {
  mode: HeatMode;
  values: number[];
  /** In Jail's share */
  jail: number;
  jail_position: number;
  min: number;
  max: number;
  /** None: no roll ends there */
  fills: (string | null)[];
  inks: (string | null)[];
  jail_fill: string | null;
  palette: string[];
  unit: "pp" | "%";
  diverging: boolean;
  per: Per;
  rolls: number;
  /** mode next: whose roll */
  player: number | null;
  strategy: JailStrategy;
  notes: HeatNotes;
};

/** The Odds tab: what is given changes, the rest stays. */
export type ProbabilityRequest = {
  type: "probability";
  mode?: HeatMode | "off" | null;
  stats?: boolean;
  jail?: JailStrategy;
  per?: Per;
  seq?: number;
};

export type ProposeTradeAction = {
  type: "propose_trade";
  player: number;
  partner: number;
  give: TradeSide;
  get: TradeSide;
};

export type RailwayRentHelp = {
  kind: "railway";
  rent: number;
  owned: number;
  by_count: number[];
};

export type RankRow = {
  player: number;
  name: string;
  cash: number;
  net_worth: number;
  winner: boolean;
};

/** what a property would earn its buyer (explain.buy_rent) */
export type RentHelp = StreetRentHelp | LinearRentHelp | RailwayRentHelp | UtilityRentHelp;

/** a view's model.send(...), checked in Python (game_widget._handle_request) */
export type Request = ActRequest | UndoRequest | TickRequest | SetupRequest | LangRequest | BotsRequest | ProbabilityRequest | RollOnceRequest | PictureRequest | WinChancesRequest | TradeAdviceRequest | LogRequest | AnalysisRequest | RollMapRequest | PositionRequest;

/** One outcome of the roll about to be made (results.RollOutcome). */
export type RollCell = {
  dice: number[];
  double: boolean;
  tile: number;
  end: number;
  name: Texts;
  end_name: Texts;
  p_win: number;
  se: number;
  gain: number;
  /** its colour, by gain (chosen in Python) */
  fill: string;
  ink: string;
};

export type RollMapError = {
  seq: number;
  status: "working" | "error";
  text: Texts;
};

/** The 36-roll map of the player about to roll (``seq``: the state it is for). */
export type RollMapPanel = {
  seq: number;
  status: "done";
  player: number;
  name: string;
  p_mean: number;
  /** per outcome */
  rollouts: number;
  /** made in the browser site, with its smaller budget */
  browser: boolean;
  sides: number;
  /** points at the ends of the colour scale (±) */
  scale: number;
  palette: string[];
  cells: RollCell[];
};

/** The 36-roll map of the player about to roll now (refused for a state left behind). */
export type RollMapRequest = {
  type: "roll_map";
  seq: number;
};

/** the 36-roll map: drawn, being worked out, refused, or none */
export type RollMapTrait = RollMapPanel | RollMapError | Empty;

export type RollOnceRequest = {
  type: "roll_once";
  seq: number;
};

export type SeatKind = "person" | "random" | "heuristic" | "strong" | "rollout";

export type SellDownAction = {
  type: "sell_down";
  player: number;
  area: string;
  level: number;
};

/** The lobby's rules options (requests.setup_options); each LobbyFlag is a bool too. */
export type SetupOptions = {
  mode?: GameMode;
  time_limit_minutes?: number | null;
  turn_timer_seconds?: number | null;
  starting_money?: number;
  free_parking_pot?: boolean;
  auction_on_decline?: boolean;
  income_tax_choice?: boolean;
  doubles_roll_again?: boolean;
  jail_card_auto?: boolean;
  release_after_three_tries?: boolean;
  card_move_to_jail_tile_jails?: boolean;
  end_when_money_reaches_zero?: boolean;
  rank_by_net_worth?: boolean;
};

export type SetupPlayer = {
  name: string;
  token: string;
  colour: string;
  seat?: SeatKind;
};

export type SetupRequest = {
  type: "setup";
  profile: string;
  /** a LobbyBoard id */
  board?: string | null;
  options?: SetupOptions | null;
  players: SetupPlayer[];
  seed?: number | null;
  seq: number;
};

export type SimpleAction = {
  type: "roll" | "buy" | "decline" | "pass" | "end_turn" | "pay_fine" | "use_card" | "accept" | "reject" | "bankrupt";
  player: number;
};

/** A text in the languages it exists in. */
export type SomeTexts = {
  en?: string;
  nl?: string;
};

/** the state trait: a game's, or the lobby's before the first game */
export type State = GameState | LobbyState;

/** The Odds tab's charts (widget/odds.py stats_payload). */
export type Stats = {
  dice: DiceStats;
  convergence: Convergence;
  jail_strategies: JailComparison;
  strategy: JailStrategy;
};

export type StreetRent = "course" | "classic" | "linear_houses";

export type StreetRentHelp = {
  kind: "street";
  rent: number;
  group_rent: number;
  base: number;
  completes_group: boolean;
  group_size: number;
  owned_in_group: number;
};

export type Swing = {
  seq: number;
  player: number;
  points: number;
  se_points: number;
  rollouts: number;
  text: Texts;
};

export type TaxAction = {
  type: "tax";
  player: number;
  choice: "flat" | "percent";
};

export type TaxData = {
  position: number;
  amount: number;
  percent: number;
};

export type TaxDecision = {
  kind: "tax";
  player: number;
  data: TaxData;
};

export type TaxHelp = {
  flat: number;
  percent: number;
  worth: number;
  percent_amount: number;
};

/** A text in both languages. */
export type Texts = {
  en: string;
  nl: string;
};

/** The view's clock reached 0 (Python checks the time itself). */
export type TickRequest = {
  type: "tick";
  seq?: number;
};

/** One tile of ``board_data.tiles`` (its index is its position). */
export type Tile = {
  pos: number;
  kind: TileKindName;
  id: string;
  name: Texts;
  area: string | null;
  /** the colour group's colour (#rrggbb) */
  colour: string | null;
  cost: number;
  rents: number[];
  mortgage: number;
  /** the board file's break points: 'Nacht|win|kel' */
  breaks?: SomeTexts;
  /** a property: mortgage + 10 % interest */
  lift_cost?: number;
  /** a street */
  house_price?: number;
  /** a street: half the house price */
  sell_refund?: number;
  /** a tax: the fixed amount */
  amount?: number;
  /** a tax: the percentage alternative */
  percent?: number | null;
};

export type TileKindName = "START" | "STREET" | "RAILWAY" | "UTILITY" | "TAX" | "CHANCE" | "CHEST" | "JAIL" | "GO_TO_JAIL" | "FREE_PARKING";

export type Timer = {
  limit: number;
  remaining: number;
};

/** the trade dialog's advice: working, rated, refused, or none yet */
export type TradeAdvice = AdviceWorking | AdviceRated | AdviceError | Empty;

export type TradeAdviceRequest = {
  type: "trade_advice";
  offer: TradeOffer;
  seq: number;
};

export type TradeData = {
  offer: ProposeTradeAction;
  proposer: number;
};

export type TradeDecision = {
  kind: "trade";
  /** the partner, who answers */
  player: number;
  data: TradeData;
};

/** An offer to rate: a propose_trade action without its type. */
export type TradeOffer = {
  player: number;
  partner: number;
  give: OfferSide;
  get: OfferSide;
};

/** What one side of a trade hands over. */
export type TradeSide = {
  properties: number[];
  cash: number;
  /** jail card ids */
  cards: string[];
};

/** Every synced trait the view reads: the widget's ``sync=True`` traits (game_widget.py and its mixins). ``VIEW_WRITES`` names those the view may set (checked in Python). */
export type Traits = {
  board_data: BoardData | Empty;
  /** sent as JSON text; parsed once per change by the view */
  state: State;
  lobby: LobbyData;
  lang: Lang;
  error: ErrorInfo | Empty;
  heat: Heat;
  stats: Stats | Empty;
  /** Roll once's fan of where the next roll ends (widget/presentation.py) */
  fan: Fan | Empty;
  win_chances: WinChances;
  /** the win bar and trade advice can run here (now everywhere: the browser site in slices) */
  rollouts_available: boolean;
  trade_advice: TradeAdvice;
  /** luck or skill: the game analysed (widget/analysis_live.py) */
  analysis: Analysis;
  /** the 36-roll map of the player about to roll */
  roll_map: RollMapTrait;
  seats: SeatKind[];
  /** seconds between bot actions, 0 to 10 */
  bot_delay: number;
  paused: boolean;
  presentation: boolean;
  /** seconds a turn that ended by itself lingers; 0 off */
  turn_pause: number;
};

export type TurnDecision = {
  kind: "turn" | "post_roll";
  player: number;
  data: Empty;
};

export type UndoRequest = {
  type: "undo";
  seq: number;
};

export type Unfinished = {
  p_win: number;
  se: number;
  ci_low: number;
  ci_high: number;
  label: Texts;
};

export type UtilityRentHelp = {
  kind: "utility";
  times: number;
  low: number;
  high: number;
  owned: number;
  of: number;
};

/** a decision's verdict by the analysis' thresholds */
export type VerdictName = "fine" | "inaccuracy" | "mistake" | "blunder";

/** the live win chances: waiting, an estimate, game over, or off */
export type WinChances = WinWaiting | WinEstimate | WinOver | Empty;

export type WinChancesRequest = {
  type: "win_chances";
  on: boolean;
  budget?: number;
  seq?: number;
};

/** The live win chances of the position of state ``seq`` (widget/win_chances.py). */
export type WinEstimate = {
  on: true;
  seq: number;
  status: "running" | "done";
  generation: number;
  turn: number;
  rollouts: number;
  budget: number;
  browser: boolean;
  players: WinRow[];
  unfinished: Unfinished;
  mean_turns: number | null;
  swings: Swing[];
};

export type WinOver = {
  on: true;
  status: "over";
  seq: number;
  swings: Swing[];
};

export type WinRow = {
  player: number;
  name: string;
  p_win: number;
  se: number;
  ci_low: number;
  ci_high: number;
};

export type WinWaiting = {
  on: true;
  status: "waiting";
  budget: number;
  /** in the browser site: slices of the event loop, a smaller budget (the view says so) */
  browser: boolean;
};
