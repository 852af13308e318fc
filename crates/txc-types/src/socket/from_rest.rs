//! [`ToSocket`] for the typed requests REST sends: each one's order method, its fields under
//! the socket's names.

use serde_json::Value;

use super::request::{not_on_socket, socket_params};
use super::{PreSend, SocketMethod, SocketRequest, ToSocket};
use crate::errors::{Reason, ValidationError};
use crate::orders::{
    CancelAllOrders, CancelConditionalOrder, CancelOrder, CollateralBboOrder, CollateralLimitOrder,
    CollateralMarketOrder, CollateralOcoOrder, CollateralStopBboOrder, CollateralStopLimitOrder,
    CollateralTriggerMarketOrder, ModifyOrder, NewOrder, OrderClass,
};

/// A single collateral order's call: its own method, or — with a stop-loss or take-profit,
/// which on REST make the order an OTO group's entry — `collateral_order_oto_place` with the
/// order as `trigger_order` and the exits as its conditional order (`margin_market_oco` for
/// both, `margin_take_profit` or `margin_stop_loss` for one).
fn single<O: NewOrder>(order: &O, method: SocketMethod) -> Result<SocketRequest, ValidationError> {
    let fields = order.fields();
    let id = Some(fields.client_order_id().clone());
    let (stop_loss, take_profit) = (fields.stop_loss(), fields.take_profit());
    if stop_loss.is_none() && take_profit.is_none() {
        let params = socket_params(method, order, |_| None, &[])?;
        return Ok(SocketRequest::new(method, params, id));
    }
    let trigger = socket_params(method, order, |_| None, &["stopLoss", "takeProfit"])?;
    if trigger
        .iter()
        .any(|(name, value)| *name == "rpi" && value == &Value::Bool(true))
    {
        let other = if stop_loss.is_some() {
            "stopLoss"
        } else {
            "takeProfit"
        };
        return Err(ValidationError::Conflict {
            field: "rpi",
            other,
        });
    }
    let Some(trigger_type) = method.oto_trigger_type() else {
        return Err(not_on_socket("stopLoss"));
    };
    let conditional = match (take_profit, stop_loss) {
        (Some(_), Some(_)) => "margin_market_oco",
        (Some(_), None) => "margin_take_profit",
        (None, _) => "margin_stop_loss",
    };
    let trigger = Value::Object(
        trigger
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    );
    let mut params = vec![
        ("trigger_order_type", Value::from(trigger_type)),
        ("trigger_order", trigger),
        ("conditional_order_type", Value::from(conditional)),
    ];
    if let Some(price) = take_profit {
        params.push(("take_profit", Value::from(price.as_str())));
    }
    if let Some(price) = stop_loss {
        params.push(("stop_loss", Value::from(price.as_str())));
    }
    Ok(SocketRequest::new(SocketMethod::OtoPlace, params, id))
}

impl ToSocket for CollateralLimitOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::LimitPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralMarketOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::MarketPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralStopLimitOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::StopLimitPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralTriggerMarketOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::StopMarketPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralBboOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::BboPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralStopBboOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        single(self, SocketMethod::StopBboPlace)
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.fields().position_side()))
    }
}

impl ToSocket for CollateralOcoOrder {
    /// The pair's `clientOrderId` names its take-profit (limit) leg:
    /// `limit_client_order_id`.
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let method = SocketMethod::OcoPlace;
        let rename = |rest| (rest == "clientOrderId").then_some("limit_client_order_id");
        let params = socket_params(method, self, rename, &[])?;
        Ok(SocketRequest::new(
            method,
            params,
            Some(self.client_order_id().clone()),
        ))
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::order(self, self.position_side()))
    }
}

impl ToSocket for ModifyOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let method = SocketMethod::Modify;
        let params = socket_params(method, self, |_| None, &[])?;
        Ok(SocketRequest::new(method, params, None))
    }
    fn pre_send(&self) -> Option<PreSend<'_>> {
        Some(PreSend::rules_only(self))
    }
}

impl ToSocket for CancelOrder {
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let method = SocketMethod::Cancel;
        let params = socket_params(method, self, |_| None, &[])?;
        Ok(SocketRequest::new(method, params, None))
    }
}

impl ToSocket for CancelConditionalOrder {
    /// The group's `id` is the socket's `order_id`.
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let method = SocketMethod::CancelConditional;
        let params = socket_params(
            method,
            self,
            |rest| (rest == "id").then_some("order_id"),
            &[],
        )?;
        Ok(SocketRequest::new(method, params, None))
    }
}

impl ToSocket for CancelAllOrders {
    /// The socket needs the market; no kinds (REST: every kind) are sent as all three, which
    /// the docs call safe on any market.
    fn to_socket(&self) -> Result<SocketRequest, ValidationError> {
        let method = SocketMethod::CancelAll;
        let mut params = socket_params(method, self, |_| None, &[])?;
        if !params.iter().any(|(name, _)| *name == "market") {
            return Err(ValidationError::invalid(
                "market",
                Reason::Unsupported("is required by order_cancel_all"),
            ));
        }
        if !params.iter().any(|(name, _)| *name == "type") {
            let every = OrderClass::ALL
                .iter()
                .map(|class| Value::from(class.as_str()));
            params.push(("type", Value::Array(every.collect())));
        }
        Ok(SocketRequest::new(method, params, None))
    }
}
