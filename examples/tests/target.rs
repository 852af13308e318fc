//! Target selection of the examples: which server, and the `--live` guard.

#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;

use txc_examples::{
    ENV_API_KEY, ENV_API_SECRET, ENV_BASE_URL, Remote, SetupError, Target, check_live, is_loopback,
    parse_live, remote_from_env,
};

fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn no_env_means_embedded_sandbox_and_empty_counts_as_unset() {
    assert_eq!(remote_from_env(env(&[])).unwrap(), None);
    assert_eq!(remote_from_env(env(&[("OTHER", "x")])).unwrap(), None);
    let empty = env(&[(ENV_BASE_URL, ""), (ENV_API_KEY, ""), (ENV_API_SECRET, "")]);
    assert_eq!(remote_from_env(empty).unwrap(), None);
}

#[test]
fn full_env_means_that_server_and_debug_hides_the_secret() {
    let remote = remote_from_env(env(&[
        (ENV_BASE_URL, "https://whitebit.com"),
        (ENV_API_KEY, "key"),
        (ENV_API_SECRET, "top-secret"),
    ]))
    .unwrap()
    .unwrap();
    assert_eq!(
        (remote.base_url.as_str(), remote.api_key.as_str()),
        ("https://whitebit.com", "key")
    );
    assert!(!format!("{remote:?}").contains("top-secret"));
}

#[test]
fn partial_env_is_an_error_naming_what_is_missing() {
    let err = remote_from_env(env(&[(ENV_BASE_URL, "https://whitebit.com")])).unwrap_err();
    let SetupError::PartialEnv(missing) = &err else {
        panic!("{err}")
    };
    assert_eq!(missing, &[ENV_API_KEY, ENV_API_SECRET]);
    let err = remote_from_env(env(&[(ENV_API_KEY, "k"), (ENV_API_SECRET, "s3cr3t")])).unwrap_err();
    assert!(err.to_string().contains("missing: TXC_BASE_URL"), "{err}");
    assert!(!err.to_string().contains("s3cr3t"));
}

#[test]
fn loopback_hosts() {
    for url in [
        "http://127.0.0.1:8080",
        "http://127.1.2.3:1/",
        "http://localhost:3000",
        "http://LOCALHOST",
        "http://[::1]:8080",
        "127.0.0.1:8080",
    ] {
        assert!(is_loopback(url), "{url}");
    }
    for url in [
        "https://whitebit.com",
        "http://0.0.0.0:8080",
        "http://10.0.0.1",
        "http://[::ffff:127.0.0.1]",
        "http://127.0.0.1.example.com",
        "http://localhost.example.com",
        "http://127.0.0.1@example.com/",
        "not a url",
        "",
    ] {
        assert!(!is_loopback(url), "{url}");
    }
}

#[test]
fn the_live_guard_refuses_before_any_io() {
    assert!(check_live("http://127.0.0.1:1234", false).is_ok());
    assert!(check_live("https://whitebit.com", true).is_ok());
    let err = check_live("https://example.invalid", false).unwrap_err();
    let text = format!("{err:?}"); // what `main` prints
    assert!(
        text.contains("refusing to contact https://example.invalid"),
        "{text}"
    );
    assert!(text.contains("--live"), "{text}");
    assert!(check_live("::::", false).is_err());
    let remote = Remote {
        base_url: "https://example.invalid".to_owned(),
        api_key: "k".to_owned(),
        api_secret: "very-secret-value".to_owned(),
    };
    assert!(matches!(
        Target::new(false, Some(remote.clone())),
        Err(SetupError::LiveRequired(_))
    ));
    // With --live it is accepted: building a target does no I/O.
    let target = Target::new(true, Some(remote)).unwrap();
    assert!(target.sandbox.is_none());
    assert_eq!(target.base_url, "https://example.invalid");
}

#[test]
fn arguments() {
    assert!(!parse_live(Vec::<String>::new()).unwrap());
    assert!(parse_live(["--live"]).unwrap());
    assert!(
        matches!(parse_live(["--force"]), Err(SetupError::UnknownArgument(a)) if a == "--force")
    );
}

#[test]
fn without_env_the_embedded_sandbox_is_the_target() {
    let target = Target::new(false, None).unwrap();
    assert!(target.sandbox.is_some());
    assert!(is_loopback(&target.base_url));
}
