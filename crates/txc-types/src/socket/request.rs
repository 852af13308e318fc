//! [`SocketRequest`]: an order method's call on the WebSocket, made from the same typed
//! request REST sends ([`ToSocket`]).

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::SocketMethod;
use crate::endpoint::{Endpoint, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::markets::RuledOrder;
use crate::orders::PositionSide;
use crate::values::ClientOrderId;

/// One call of an order method: the method and its one parameter object, in wire order —
/// what goes in `params` of `{"id", "method", "params": [{…}]}`.
///
/// Made from the typed requests REST sends ([`ToSocket`]): one builder, two transports. The
/// request id is the connection's, given when the frame is written ([`frame`](Self::frame)).
///
/// ```
/// use txc_types::orders::{CollateralLimitOrder, Side};
/// use txc_types::socket::{SocketMethod, ToSocket};
/// let order = CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63385.90")
///     .client_order_id("q-1")
///     .build()?;
/// let call = order.to_socket()?;
/// assert_eq!(call.method(), SocketMethod::LimitPlace);
/// assert_eq!(
///     call.frame(500010),
///     r#"{"id":500010,"method":"collateral_order_limit_place","params":[{"market":"BTC_PERP","side":"buy","amount":"0.001","price":"63385.90","client_order_id":"q-1"}]}"#
/// );
/// assert_eq!(call.client_order_id().map(|id| id.as_str()), Some("q-1"));
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SocketRequest {
    method: SocketMethod,
    params: Vec<(&'static str, Value)>,
    client_order_id: Option<ClientOrderId>,
}

impl SocketRequest {
    /// A call of `method` with `params` (wire names and values, in order); the `client_order_id`
    /// that finds what it places, if any.
    pub(crate) fn new(
        method: SocketMethod,
        params: Vec<(&'static str, Value)>,
        client_order_id: Option<ClientOrderId>,
    ) -> Self {
        Self {
            method,
            params,
            client_order_id,
        }
    }

    /// The order method.
    pub fn method(&self) -> SocketMethod {
        self.method
    }

    /// The parameter object's fields, in wire order.
    pub fn params(&self) -> &[(&'static str, Value)] {
        &self.params
    }

    /// The parameter `name`, if sent.
    pub fn param(&self, name: &str) -> Option<&Value> {
        self.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The market the call acts on (an OTO's: its entry's).
    pub fn market(&self) -> Option<&str> {
        self.param("market")
            .or_else(|| self.param("trigger_order")?.get("market"))
            .and_then(Value::as_str)
    }

    /// The `client_order_id` that finds what the call places or targets: an order's own, an
    /// OCO's take-profit leg's (`limit_client_order_id`), an OTO's entry's. `None` for a call
    /// that carries none (a TPSL pair, a cancel by the exchange's id, cancel-all).
    pub fn client_order_id(&self) -> Option<&ClientOrderId> {
        self.client_order_id.as_ref()
    }

    /// The parameter object as JSON.
    pub fn params_value(&self) -> Value {
        Value::Object(
            self.params
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.clone()))
                .collect(),
        )
    }

    /// The text frame of this call with request id `id`:
    /// `{"id":…,"method":"…","params":[{…}]}`.
    pub fn frame(&self, id: u64) -> String {
        // Writing a `Value` tree of strings, numbers and booleans to a `String` cannot fail.
        serde_json::to_string(&Frame { id, request: self }).unwrap_or_default()
    }
}

struct Frame<'a> {
    id: u64,
    request: &'a SocketRequest,
}

struct Params<'a>(&'a [(&'static str, Value)]);
struct Object<'a>(&'a [(&'static str, Value)]);

impl Serialize for Frame<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", self.request.method.name())?;
        map.serialize_entry("params", &Params(&self.request.params))?;
        map.end()
    }
}

impl Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(1))?;
        seq.serialize_element(&Object(self.0))?;
        seq.end()
    }
}

impl Serialize for Object<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// A typed request that has a WebSocket twin: the same value, sent as an order method's call.
///
/// | typed request | method |
/// |---|---|
/// | [`CollateralLimitOrder`](crate::orders::CollateralLimitOrder) | `collateral_order_limit_place` |
/// | [`CollateralMarketOrder`](crate::orders::CollateralMarketOrder) | `collateral_order_market_place` |
/// | [`CollateralStopLimitOrder`](crate::orders::CollateralStopLimitOrder) | `collateral_order_stop_limit_place` |
/// | [`CollateralTriggerMarketOrder`](crate::orders::CollateralTriggerMarketOrder) | `collateral_order_stop_market_place` |
/// | [`CollateralBboOrder`](crate::orders::CollateralBboOrder) | `collateral_order_bbo_place` |
/// | [`CollateralStopBboOrder`](crate::orders::CollateralStopBboOrder) | `collateral_order_stop_bbo_place` |
/// | any of those six with `stopLoss` / `takeProfit` | `collateral_order_oto_place` (the order as the entry) |
/// | [`CollateralOcoOrder`](crate::orders::CollateralOcoOrder) | `collateral_order_oco_place` |
/// | [`CollateralTpslOrder`](super::CollateralTpslOrder) | `collateral_order_tpsl_place` |
/// | [`ModifyOrder`](crate::orders::ModifyOrder) | `order_modify` |
/// | [`CancelOrder`](crate::orders::CancelOrder) | `order_cancel` |
/// | [`CancelConditionalOrder`](crate::orders::CancelConditionalOrder) | `order_cancel_conditional` |
/// | [`CancelAllOrders`](crate::orders::CancelAllOrders) | `order_cancel_all` |
///
/// What one transport takes and the other does not is refused here, before anything is
/// sent, naming the REST field: a modify's `stp`, cancel-all's `positionSide` or a missing
/// market; an OTO entry with `rpi`.
pub trait ToSocket {
    /// The call of the request's order method.
    fn to_socket(&self) -> Result<SocketRequest, ValidationError>;

    /// What the client checks of the call before its frame is written — what it checks of the
    /// same order before REST sends it: the market's published rules, and the position side
    /// against the account's position mode. `None` (the default, and the cancels'): nothing.
    fn pre_send(&self) -> Option<PreSend<'_>> {
        None
    }
}

/// What the client checks of an order method's call before its frame is written
/// ([`ToSocket::pre_send`]): the same checks, by the same code, as before REST sends the order.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct PreSend<'a> {
    /// The order as its market's published rules read it.
    pub rules: &'a (dyn RuledOrder + Sync),
    /// Whether its position side is checked against the account's position mode (an order,
    /// not a modify).
    pub mode_checked: bool,
    /// The position side it sets, if any.
    pub position_side: Option<PositionSide>,
}

impl<'a> PreSend<'a> {
    /// An order's checks: its rules and its position side.
    pub fn order(rules: &'a (dyn RuledOrder + Sync), position_side: Option<PositionSide>) -> Self {
        Self {
            rules,
            mode_checked: true,
            position_side,
        }
    }

    /// A modify's: its rules only.
    pub fn rules_only(rules: &'a (dyn RuledOrder + Sync)) -> Self {
        Self {
            rules,
            mode_checked: false,
            position_side: None,
        }
    }
}

impl std::fmt::Debug for PreSend<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreSend")
            .field("parts", &self.rules.parts())
            .field("mode_checked", &self.mode_checked)
            .field("position_side", &self.position_side)
            .finish()
    }
}

/// The socket's name of a REST body field: snake case where REST writes camel case.
pub(crate) const fn socket_name(rest: &'static str) -> &'static str {
    match rest.as_bytes() {
        b"clientOrderId" => "client_order_id",
        b"postOnly" => "post_only",
        b"reduceOnly" => "reduce_only",
        b"positionSide" => "position_side",
        b"orderId" => "order_id",
        b"bboRole" => "bbo_role",
        b"activationPrice" => "activation_price",
        b"stopLoss" => "stop_loss",
        b"takeProfit" => "take_profit",
        _ => rest,
    }
}

/// A wire value as JSON.
pub(crate) fn json(value: &WireValue<'_>) -> Value {
    match *value {
        WireValue::Str(text) => Value::from(text),
        WireValue::Bool(flag) => Value::Bool(flag),
        WireValue::Int(n) => Value::from(n),
        WireValue::Null => Value::Null,
        WireValue::List(items) => Value::Array(items.iter().map(json).collect()),
        WireValue::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(name, value)| ((*name).to_owned(), json(value)))
                .collect(),
        ),
    }
}

/// The refusal of a REST field `method` does not take.
pub(crate) fn not_on_socket(field: &'static str) -> ValidationError {
    ValidationError::invalid(
        field,
        Reason::Unsupported("is not a parameter of this WebSocket order method"),
    )
}

/// The fields of `request` under their socket names — `rename` first, then [`socket_name`] —
/// each checked against `method`'s documented parameters (a field it does not take is refused,
/// naming the REST field); the fields `skip` names are left out.
pub(crate) fn socket_params<E: Endpoint>(
    method: SocketMethod,
    request: &E,
    rename: impl Fn(&'static str) -> Option<&'static str>,
    skip: &[&str],
) -> Result<Vec<(&'static str, Value)>, ValidationError> {
    let mut params = Vec::new();
    request.try_for_each_field(|rest, value| {
        if skip.contains(&rest) {
            return Ok(());
        }
        let name = rename(rest).unwrap_or_else(|| socket_name(rest));
        if !method.params().contains(&name) {
            return Err(not_on_socket(rest));
        }
        params.push((name, json(&value)));
        Ok(())
    })?;
    Ok(params)
}
