// PMKFoundation's names that VowFoundation spells differently, declared unavailable so that code
// moved from PromiseKit meets an error on the line that uses one, naming the VowFoundation
// spelling, with a fix-it where a rename is all it takes. None of them can be called: they
// exist for the compiler's messages alone. Documentation/MigratingFromPromiseKit.md lists the
// same names, and its `swift error` block checks each message.
// Where FoundationNetworking holds URLRequest, Foundation is public here for Process alone, so a
// build without process launching must not import it publicly.
#if canImport(FoundationNetworking)
public import FoundationNetworking
#if !VOW_NO_PROCESS
public import Foundation
#endif
#else
public import Foundation
#endif

/// PMKFoundation's error for a status outside 200–299, `badStatusCode(code, data, response)`;
/// VowFoundation's is ``HTTPError``, a struct with the `status`, `headers`, `body` and `url`.
@available(
    *, unavailable, renamed: "HTTPError",
    message: "VowFoundation's HTTPError is a struct with the status, headers, body and url"
)
public typealias PMKHTTPError = HTTPError

extension URLRequestConvertible {
    /// PMKFoundation's name for ``URLRequestConvertible/urlRequest``.
    @available(*, unavailable, renamed: "urlRequest")
    public var pmkRequest: URLRequest { urlRequest }
}

#if !VOW_NO_PROCESS
extension Process {
    /// PMKFoundation's error for a process that failed; VowFoundation's is ``ProcessError``.
    @available(
        *, unavailable,
        message: "launch(.promise) rejects with ProcessError: status, reason, output, command"
    )
    public typealias PMKError = ProcessError
}
#endif
