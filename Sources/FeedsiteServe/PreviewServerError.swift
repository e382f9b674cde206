/// Why `feedsite serve` could not start; the text is the CLI's message.
package enum PreviewServerError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Another process listens on the port.
    case portInUse(host: String, port: Int)
    /// The address could not be bound for another reason (no such interface, permission…).
    case cannotListen(host: String, port: Int, reason: String)

    package var description: String {
        switch self {
        case .portInUse(_, let port):
            "error: port \(port) is already in use; pick another with --port \(port == 65535 ? 8000 : port + 1) "
                + "(or --port 0 for any free one)"
        case .cannotListen(let host, let port, let reason):
            "error: cannot listen on \(host):\(port): \(reason); pick another address with --host or --port"
        }
    }
}
