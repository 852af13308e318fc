//! [`forward!`]: a test trait implemented for both clients from one list of its methods.

/// Implements the test trait `$api` for both clients — `txc_blocking::Client` and
/// [`AsyncApi`](super::AsyncApi) — from one list of its methods, each forwarding to the
/// client's method `$to` with the same arguments, the async client's future run on the
/// driver's runtime:
///
/// - `call name(&self, arg: Type) -> Ret => to;` returns the client's answer;
/// - `now name(&self) -> Ret;` is not async in either client;
/// - `pages name(&self, query: Query) -> Pages<Record>;` reads a paged list to its end
///   through the client's `pages`;
/// - `inner name(&self, …) -> Ret |client| { … }` runs one body on either client;
///
/// and the `blocking { … } asynchronous { … }` blocks at the end hold the methods whose
/// bodies differ otherwise.
macro_rules! forward {
    (
        impl $api:ident {
            $(call $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty => $to:ident;)*
            $(now $now:ident(&self) -> $now_ret:ty;)*
            $(pages $pages:ident(&self, $query:ident: $query_ty:ty) -> $pages_ret:ty;)*
            $(inner $inner:ident(&self $(, $iarg:ident: $ity:ty)*) -> $iret:ty
                |$client:ident| $body:block)*
        }
        $(blocking { $($blocking:tt)* } asynchronous { $($asynchronous:tt)* })?
    ) => {
        impl $api for txc_blocking::Client {
            $(fn $name(&self $(, $arg: $ty)*) -> $ret {
                txc_blocking::Client::$to(self $(, $arg)*)
            })*
            $(fn $now(&self) -> $now_ret {
                txc_blocking::Client::$now(self)
            })*
            $(fn $pages(&self, $query: $query_ty) -> $pages_ret {
                self.pages($query).collect()
            })*
            $(fn $inner(&self $(, $iarg: $ity)*) -> $iret {
                let $client = self;
                $body
            })*
            $($($blocking)*)?
        }

        impl $api for AsyncApi {
            $(fn $name(&self $(, $arg: $ty)*) -> $ret {
                self.runtime.block_on(self.client.$to($($arg),*))
            })*
            $(fn $now(&self) -> $now_ret {
                self.client.$now()
            })*
            $(fn $pages(&self, $query: $query_ty) -> $pages_ret {
                self.all_pages($query)
            })*
            $(fn $inner(&self $(, $iarg: $ity)*) -> $iret {
                let $client = &self.client;
                $body
            })*
            $($($asynchronous)*)?
        }
    };
}
