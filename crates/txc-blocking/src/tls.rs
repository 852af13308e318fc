//! The TLS of a client, chosen once when it is built, for its REST agent and its event
//! stream's WebSocket alike.
//!
//! | features | REST and WebSocket |
//! |---|---|
//! | `native-tls` (with or without a `rustls*` feature) | the platform's library and roots |
//! | `rustls-ring` (the default's), `rustls-aws-lc`, `rustls-no-provider` | rustls and the webpki roots, with rustls' process-default provider if the program installed one, else ring (`rustls-ring`), else aws-lc-rs (`rustls-aws-lc`); with `rustls-no-provider` alone and no process default, building the client fails |
//! | none | plain `http://` and `ws://` only |

#[cfg(feature = "rustls-no-provider")]
use std::sync::Arc;

use txc_core::Error;

/// The TLS of a client's connections.
#[derive(Clone, Debug)]
pub(crate) enum Tls {
    /// No TLS feature: `http://` and `ws://` only.
    #[cfg_attr(
        any(feature = "native-tls", feature = "rustls-no-provider"),
        allow(dead_code)
    )]
    Plain,
    /// The platform's TLS library, with the platform's roots.
    #[cfg(feature = "native-tls")]
    Native,
    /// rustls with this provider and the webpki roots.
    #[cfg(feature = "rustls-no-provider")]
    Rustls(Arc<rustls::crypto::CryptoProvider>),
}

impl Tls {
    /// The TLS the features and the process choose (see the module's table). Fails, rather
    /// than panicking at the first connection, when rustls has no provider.
    pub(crate) fn choose() -> Result<Self, Error> {
        #[cfg(feature = "native-tls")]
        return Ok(Self::Native);
        #[cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
        return rustls_provider().map(Self::Rustls);
        #[cfg(not(any(feature = "native-tls", feature = "rustls-no-provider")))]
        Ok(Self::Plain)
    }

    /// The TLS of an own agent, for the event stream to follow: its library, and its rustls
    /// provider if it names one (else the choice above, as ureq would make it).
    pub(crate) fn of_agent(agent: &ureq::Agent) -> Result<Self, Error> {
        #[cfg(any(feature = "native-tls", feature = "rustls-no-provider"))]
        {
            let config = agent.config().tls_config();
            match config.provider() {
                #[cfg(feature = "native-tls")]
                ureq::tls::TlsProvider::NativeTls => return Ok(Self::Native),
                #[cfg(feature = "rustls-no-provider")]
                ureq::tls::TlsProvider::Rustls => {
                    return match config.unversioned_rustls_crypto_provider() {
                        Some(provider) => Ok(Self::Rustls(Arc::clone(provider))),
                        None => rustls_provider().map(Self::Rustls),
                    };
                }
                _ => {}
            }
        }
        #[cfg(not(any(feature = "native-tls", feature = "rustls-no-provider")))]
        let _ = agent;
        Self::choose()
    }
}

/// rustls' process default, else the provider of this crate's features, ring first.
#[cfg(feature = "rustls-no-provider")]
fn rustls_provider() -> Result<Arc<rustls::crypto::CryptoProvider>, Error> {
    if let Some(installed) = rustls::crypto::CryptoProvider::get_default() {
        return Ok(Arc::clone(installed));
    }
    #[cfg(feature = "rustls-ring")]
    return Ok(Arc::new(rustls::crypto::ring::default_provider()));
    #[cfg(all(feature = "rustls-aws-lc", not(feature = "rustls-ring")))]
    return Ok(Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
    #[cfg(not(any(feature = "rustls-ring", feature = "rustls-aws-lc")))]
    Err(Error::invalid_config(
        "tls",
        "rustls has no crypto provider: with txc-blocking's `rustls-no-provider` feature, \
         install one as rustls' process default (CryptoProvider::install_default) before \
         building the client, or enable `rustls-ring` or `rustls-aws-lc`",
    ))
}

/// The agent's settings with its TLS: `tls`'s library, roots and provider.
pub(crate) fn with_tls(
    config: ureq::config::ConfigBuilder<ureq::typestate::AgentScope>,
    tls: &Tls,
) -> ureq::config::ConfigBuilder<ureq::typestate::AgentScope> {
    match tls {
        Tls::Plain => config,
        #[cfg(feature = "native-tls")]
        Tls::Native => config.tls_config(
            ureq::tls::TlsConfig::builder()
                .provider(ureq::tls::TlsProvider::NativeTls)
                .root_certs(ureq::tls::RootCerts::PlatformVerifier)
                .build(),
        ),
        #[cfg(feature = "rustls-no-provider")]
        Tls::Rustls(provider) => config.tls_config(
            ureq::tls::TlsConfig::builder()
                .provider(ureq::tls::TlsProvider::Rustls)
                .root_certs(ureq::tls::RootCerts::WebPki)
                .unversioned_rustls_crypto_provider(Arc::clone(provider))
                .build(),
        ),
    }
}

/// The event stream's rustls configuration: the agent's provider and roots.
#[cfg(all(feature = "events", feature = "rustls-no-provider"))]
pub(crate) fn rustls_config(
    provider: &Arc<rustls::crypto::CryptoProvider>,
) -> Result<Arc<rustls::ClientConfig>, String> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = rustls::ClientConfig::builder_with_provider(Arc::clone(provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS configuration: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    // One process default per test binary: these tests never install one (tests/tls.rs does,
    // in a process of its own).
    #[cfg(all(feature = "rustls-no-provider", not(feature = "native-tls")))]
    #[test]
    fn rustls_takes_the_features_provider_without_a_process_default() {
        assert!(rustls::crypto::CryptoProvider::get_default().is_none());
        let chosen = Tls::choose();
        let expected = if cfg!(feature = "rustls-ring") {
            Some("Ring")
        } else if cfg!(feature = "rustls-aws-lc") {
            Some("AwsLcRs")
        } else {
            None
        };
        match (chosen, expected) {
            (Ok(Tls::Rustls(provider)), Some(name)) => {
                assert_eq!(format!("{:?}", provider.key_provider), name);
            }
            (Err(Error::InvalidConfig { what, reason, .. }), None) => {
                assert_eq!(what, "tls");
                assert!(reason.contains("install_default"), "{reason}");
            }
            (other, _) => panic!("unexpected choice {other:?} (expected {expected:?})"),
        }
    }

    #[cfg(all(feature = "rustls-ring", not(feature = "native-tls")))]
    #[test]
    fn the_agent_and_the_event_stream_share_one_provider() {
        let Ok(Tls::Rustls(provider)) = Tls::choose() else {
            panic!("rustls-ring chooses rustls");
        };
        let tls = Tls::Rustls(Arc::clone(&provider));
        let agent: ureq::Agent = with_tls(ureq::Agent::config_builder(), &tls).build().into();
        let config = agent.config().tls_config();
        assert_eq!(config.provider(), ureq::tls::TlsProvider::Rustls);
        let in_agent = config.unversioned_rustls_crypto_provider().as_ref();
        assert!(in_agent.is_some_and(|p| Arc::ptr_eq(p, &provider)));
        // An own agent's provider is followed (here, the same one).
        let Ok(Tls::Rustls(followed)) = Tls::of_agent(&agent) else {
            panic!("an agent on rustls is followed");
        };
        assert!(Arc::ptr_eq(&followed, &provider));
    }

    #[cfg(feature = "native-tls")]
    #[test]
    fn native_tls_wins_over_rustls() {
        assert!(matches!(Tls::choose(), Ok(Tls::Native)));
        let agent: ureq::Agent = with_tls(ureq::Agent::config_builder(), &Tls::Native)
            .build()
            .into();
        let config = agent.config().tls_config();
        assert_eq!(config.provider(), ureq::tls::TlsProvider::NativeTls);
        assert!(matches!(Tls::of_agent(&agent), Ok(Tls::Native)));
    }

    #[cfg(not(any(feature = "native-tls", feature = "rustls-no-provider")))]
    #[test]
    fn without_a_tls_feature_the_client_is_plain() {
        assert!(matches!(Tls::choose(), Ok(Tls::Plain)));
        let agent = ureq::Agent::new_with_defaults();
        assert!(matches!(Tls::of_agent(&agent), Ok(Tls::Plain)));
    }
}
