//! [`SocketRefusal`]: what the WebSocket's error codes mean — its own numbering, independent
//! of REST's — and [`SocketCall`], the context two overloaded codes are read in.

use std::fmt;

use super::SocketMethod;

/// What a frame was, for reading its error: codes `6` and `11` mean different things by
/// context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SocketCall {
    /// `authorize`: code `11` carries the authorization server's message.
    Authorize,
    /// A subscription, query or `ping`.
    Other,
    /// An order method.
    Order(SocketMethod),
}

macro_rules! refusals {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $text:literal; )*) => {
        /// Why the WebSocket refused a call: one variant per code its order-management and
        /// rate-limit pages document.
        ///
        /// The numbering is the socket's own — `40` is "order is not post only" here, another
        /// thing on REST — so read a code only with [`SocketRefusal::from_code`], in the
        /// context of the call it answers ([`SocketCall`]): code `6` is
        /// [`OrderNotFound`](Self::OrderNotFound) in a cancel's or modify's answer and
        /// [`AuthenticationRequired`](Self::AuthenticationRequired) elsewhere; code `11` is
        /// [`AuthorizationFailed`](Self::AuthorizationFailed) answering `authorize` and
        /// [`AmountTooSmall`](Self::AmountTooSmall) elsewhere. Region refusals
        /// (`10006`–`10010`) are checked by the exchange before anything else: nothing more
        /// about the order was evaluated.
        ///
        /// What it says about an order's fate is [`fate`](Self::fate).
        ///
        /// ```
        /// use txc_types::socket::{SocketCall, SocketMethod, SocketRefusal, Fate};
        /// let cancel = SocketCall::Order(SocketMethod::Cancel);
        /// let place = SocketCall::Order(SocketMethod::LimitPlace);
        /// assert_eq!(SocketRefusal::from_code(6, cancel), Some(SocketRefusal::OrderNotFound));
        /// assert_eq!(SocketRefusal::from_code(6, place), Some(SocketRefusal::AuthenticationRequired));
        /// assert_eq!(SocketRefusal::from_code(43, place), Some(SocketRefusal::ClientOrderIdExists));
        /// assert_eq!(SocketRefusal::ClientOrderIdExists.fate(), Fate::Duplicate);
        /// assert_eq!(SocketRefusal::from_code(5, place).map(SocketRefusal::fate), Some(Fate::Unknown));
        /// assert_eq!(SocketRefusal::from_code(999, place), None);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum SocketRefusal {
            $( $(#[$doc])* $variant, )*
            /// `6` outside a cancel or modify: the connection has not called `authorize`.
            AuthenticationRequired,
            /// `11` answering `authorize`: the authorization server refused the token (its
            /// message is the error's).
            AuthorizationFailed,
        }

        impl SocketRefusal {
            /// Every class: the codes in the docs' order, then the second readings of `6`
            /// and `11`.
            pub const ALL: &'static [Self] = &[
                $( Self::$variant, )*
                Self::AuthenticationRequired,
                Self::AuthorizationFailed,
            ];

            /// The exchange's code.
            pub const fn code(self) -> i64 {
                match self {
                    $( Self::$variant => $code, )*
                    Self::AuthenticationRequired => 6,
                    Self::AuthorizationFailed => 11,
                }
            }

            /// The docs' message for it (the exchange's text may differ: branch on the code).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )*
                    Self::AuthenticationRequired => "require authentication",
                    Self::AuthorizationFailed => "authorization failed",
                }
            }
        }
    };
}

refusals! {
    /// `1`: a parameter is missing, malformed or in a refused combination; the message names
    /// it.
    InvalidArgument = 1, "invalid argument";
    /// `2`: the matching engine is unreachable.
    Internal = 2, "internal error";
    /// `3`: a downstream service is down.
    Unavailable = 3, "service unavailable";
    /// `4`: no such method.
    MethodNotFound = 4, "method not found";
    /// `5`: the engine did not answer in time.
    Timeout = 5, "service timeout";
    /// `6` in a cancel's or modify's answer: the order is unknown or already finished.
    OrderNotFound = 6, "order not found";
    /// `7`: the connection's rate limit.
    TooManyRequests = 7, "too many requests";
    /// `8`: the asset is not listed.
    UnknownAsset = 8, "unknown asset";
    /// `9`: the market is not listed.
    UnknownMarket = 9, "unknown market";
    /// `10`: not enough spot balance.
    BalanceNotEnough = 10, "balance not enough";
    /// `11` answering a placement: below the market's minimum amount or notional.
    AmountTooSmall = 11, "amount too small";
    /// `12`: the book is too thin to execute or price the order.
    NotEnoughTraders = 12, "not enough traders";
    /// `13`: a post-only spot order would cross the spread.
    SpotOrderByTakerPrice = 13, "order by taker price";
    /// `14`: a post-only margin order would cross the spread.
    MarginOrderByTakerPrice = 14, "margin order by taker price";
    /// `15`: the exchange's stock collateral falls short.
    ExchangeStockNotEnough = 15, "margin exchange stock not enough";
    /// `16`: the exchange's money collateral falls short.
    ExchangeMoneyNotEnough = 16, "margin exchange money not enough";
    /// `17`: the collateral balance does not cover the order.
    MarginBalanceNotEnough = 17, "user margin balance not enough";
    /// `19`: a collateral method (or a group cancel) on a spot-only market.
    NotMarginMarket = 19, "market is not margin market";
    /// `40`: the market is in post-only mode and the limit order is not post-only.
    NotPostOnly = 40, "order is not post only";
    /// `42`: the slippage guard stopped a market order.
    SlippageThreshold = 42, "order slippage threshold";
    /// `43`: an active order already has this client order id — on a resend, evidence that
    /// the first send placed it.
    ClientOrderIdExists = 43, "client order id already exists";
    /// `51`: trading in the market is not allowed (suspended, or post-only mode for market
    /// and stop methods).
    TradingNotAllowed = 51, "trading in the market is not allowed";
    /// `101`: the activation price equals the last price.
    ActivationAtLastPrice = 101, "activation price should not be equal to the last price";
    /// `103`: the market's cap on conditional orders is reached.
    StopMarketOrdersCap = 103, "max num margin stop market orders";
    /// `104`: no open position to attach a TPSL to.
    NoPosition = 104, "margin position not exists";
    /// `105`: the take-profit trigger is on the wrong side.
    TakeProfitActivation = 105, "wrong activation price for take profit";
    /// `106`: the stop-loss trigger is on the wrong side.
    StopLossActivation = 106, "wrong activation price for stop loss";
    /// `108`: the take-profit limit price does not fit its trigger.
    TakeProfitLimitPrice = 108, "wrong limit price for take profit";
    /// `111`: the position would exceed its size cap.
    PositionTooBig = 111, "margin position is too big";
    /// `112`: the pending margin orders' value would exceed the limit.
    PendingOrdersTooBig = 112, "margin pending orders value is too big";
    /// `113`: a hedge-mode switch is in progress.
    PositionSideChanging = 113, "user position side change mode";
    /// `114`: `position_side` does not fit the account's mode.
    PositionSideMismatch = 114, "order's position side does not match user's setting";
    /// `115`: a reduce-only order would flip the position.
    OppositePosition = 115, "order would result in a new position in the opposite direction";
    /// `116`: a reduce-only order has nothing to reduce.
    ReduceOnlyRejected = 116, "margin order with reduce only is rejected";
    /// `150`: an OCO's take-profit would take.
    TakeProfitNotPostOnly = 150, "take profit is not post only";
    /// `151`: the stop-loss trigger is on the wrong side of the current price.
    StopLossWrongSide = 151, "wrong activation price for stop loss";
    /// `152`: the stop-loss leg could not be placed.
    StopLossNotPlaced = 152, "can not place stop loss";
    /// `153`: the take-profit leg could not be placed.
    TakeProfitNotPlaced = 153, "can not place take profit";
    /// `154`: the price is outside the allowed spread.
    PriceOutsideSpread = 154, "price is outside spread";
    /// `155`: a modify of an OCO or OTO leg (cancel the group instead).
    ConditionalModification = 155, "conditional order modification";
    /// `156`: the order's type cannot be modified.
    WrongOrderType = 156, "wrong order type";
    /// `158`: the trigger and the limit price do not fit.
    ActivationForLimit = 158, "wrong activation price for limit order";
    /// `159`: the limit price does not fit the stop-market order.
    LimitForStopMarket = 159, "wrong limit price for stop market order";
    /// `160`: a modify of a TPSL leg.
    TpslModification = 160, "tpsl order modification";
    /// `161`: a group failed its consistency checks.
    ConditionalValidation = 161, "conditional order validation";
    /// `162`: a modify's new total is invalid.
    WrongTotal = 162, "wrong param total";
    /// `163`: a modify's new amount is invalid.
    WrongAmount = 163, "wrong param amount";
    /// `164`: a modify's new price is invalid.
    WrongPrice = 164, "wrong param price";
    /// `200`: unknown conditional order type in an OTO.
    UnknownConditionalType = 200, "unknown conditional order type in oto";
    /// `201`: unknown trigger order type in an OTO.
    UnknownTriggerType = 201, "unknown trigger order type in oto";
    /// `250`: the price is outside the market's price band.
    PriceBand = 250, "price must be >= X / <= Y";
    /// `251`: the activation price is outside the maker price bands.
    ActivationBand = 251, "activation price is out of bands";
    /// `601`: the account is restricted from trading.
    AccountRestricted = 601, "account is restricted from trading";
    /// `602`: a flag blocked for the account.
    ForbiddenFlags = 602, "order contains forbidden flags";
    /// `10000`: the per-user request rate limit.
    UserRateLimit = 10000, "too many requests per period";
    /// `10001`: the per-user new-order rate limit.
    NewOrderRateLimit = 10001, "too many new orders per period";
    /// `10006`: the region does not permit order placement.
    RegionUnsupported = 10006, "region is unknown or not supported";
    /// `10007`: futures trading is not available in the region.
    RegionNoFutures = 10007, "futures trading is not available in your region";
    /// `10008`: margin trading is not available in the region.
    RegionNoMargin = 10008, "margin trading is not available in your region";
    /// `10009`: spot trading is not available in the region.
    RegionNoSpot = 10009, "spot trading is not available in your region";
    /// `10010`: the market is restricted in the region.
    RegionRestrictedMarket = 10010, "this market is restricted in your region";
}

/// What a refusal says about the call's effect — for an order, whether it exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fate {
    /// Refused: nothing was done (safe to fix and send again, with a fresh request id).
    NotDone,
    /// The exchange could not say (`2`, `3`, `5`): the order may exist — resolve before any
    /// resend.
    Unknown,
    /// `43`: an active order already has the client order id — on a resend, the first send
    /// placed it.
    Duplicate,
    /// A rate limit (`7`, `10000`, `10001`): nothing was done; wait before sending again.
    RateLimited,
}

impl SocketRefusal {
    /// The class of `code` answering `call`; `None` for a code the docs do not list.
    pub fn from_code(code: i64, call: SocketCall) -> Option<Self> {
        match (code, call) {
            (6, SocketCall::Order(method)) if method.targets_an_order() => {
                Some(Self::OrderNotFound)
            }
            (6, _) => Some(Self::AuthenticationRequired),
            (11, SocketCall::Authorize) => Some(Self::AuthorizationFailed),
            (11, _) => Some(Self::AmountTooSmall),
            _ => Self::ALL.iter().copied().find(|class| class.code() == code),
        }
    }

    /// What the refusal says about the call's effect.
    pub const fn fate(self) -> Fate {
        match self {
            Self::Internal | Self::Unavailable | Self::Timeout => Fate::Unknown,
            Self::ClientOrderIdExists => Fate::Duplicate,
            Self::TooManyRequests | Self::UserRateLimit | Self::NewOrderRateLimit => {
                Fate::RateLimited
            }
            _ => Fate::NotDone,
        }
    }

    /// Whether it is a region refusal (`10006`–`10010`), checked before anything else.
    pub const fn is_region(self) -> bool {
        matches!(self.code(), 10006..=10010)
    }
}

impl fmt::Display for SocketRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.as_str(), self.code())
    }
}
