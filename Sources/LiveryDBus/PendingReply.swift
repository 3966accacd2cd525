import CDBus
import Synchronization

/// The reply to one method call whose handler answers later, from any thread
/// (``Method/deferred(_:inputs:outputs:handler:)``): a method whose work is long runs it
/// elsewhere, and the loop thread goes on answering other calls meanwhile.
///
/// Exactly one reply is sent for the call, as the D-Bus specification requires of every call
/// that expects one ("Message Protocol", "Method Calls"): the first ``succeed(_:)`` or
/// ``fail(_:)`` sends it and later ones do nothing; a pending reply released unanswered sends
/// `org.freedesktop.DBus.Error.Failed` ("the method ended without an answer"), so that the caller
/// is never left waiting for its timeout. Nothing is sent for a call flagged
/// `NO_REPLY_EXPECTED`. The reply is queued to the connection's loop thread and sent from it.
public final class PendingReply: Sendable {
    /// Only the call's serial and sender, not the call: see ``ReplyAddress``.
    private let caller: ReplyAddress
    private let connection: Connection
    private let expectsReply: Bool
    /// `Interface.Method`, for the error about a wrong output signature.
    private let methodName: String
    private let outputSignature: String
    private let answered = Atomic<Bool>(false)

    init(call: OpaquePointer, connection: Connection, methodName: String, outputSignature: String) {
        self.caller = ReplyAddress(call: call)
        self.connection = connection
        self.expectsReply = dbus_message_get_no_reply(call) == 0
        self.methodName = methodName
        self.outputSignature = outputSignature
    }

    deinit {
        if claim() {
            send(.failure(DBusError(.failed, "\(methodName) ended without an answer")))
        }
    }

    /// Answers the call with `values`, which must match the method's declared outputs
    /// (otherwise the caller gets `org.freedesktop.DBus.Error.Failed` naming both signatures).
    ///
    /// - Parameter values: the output arguments, in order.
    public func succeed(_ values: [DBusValue]) {
        guard claim() else { return }
        let returned = values.map(\.signatureText).joined()
        guard returned == outputSignature else {
            send(
                .failure(
                    DBusError(
                        .failed,
                        "Method '\(methodName)' returned signature '\(returned)' instead of its declared '\(outputSignature)'"
                    )))
            return
        }
        guard expectsReply else { return }
        // Built here, on the answering thread, so that the loop thread only sends it: a large
        // reply (a Watch of 1,024 paths) marshalled there, or its values freed there, held
        // every other call, Ping included, for as long.
        guard let message = caller.methodReturn() else {
            send(.failure(DBusError(.noMemory, "cannot allocate a reply")))
            return
        }
        do throws(DBusError) {
            try Marshalling.append(values, to: message.raw)
        } catch {
            send(.failure(DBusError(.failed, "the reply could not be built: \(error.message)")))
            return
        }
        let connection = self.connection
        // Nothing touches the reply after this but the loop thread, which only sends it.
        connection.perform { message.send(on: connection.raw) }
    }

    /// Answers the call with an error reply: a ``DBusError`` as it is, any other error as
    /// ``Method/Handler`` describes.
    ///
    /// - Parameter error: why the call failed.
    public func fail(_ error: any Error) {
        guard claim() else { return }
        send(.failure(DBusError.from(error)))
    }

    /// Sends nothing for the call, now or when the pending reply is released: its caller left
    /// the bus, so a reply would reach nobody (the bus refuses a message to a unique name with
    /// no owner). Later answers do nothing.
    /// - Returns: Whether the call was still unanswered.
    @discardableResult
    public func abandon() -> Bool {
        claim()
    }

    /// Whether this is the first answer; marks the reply answered.
    func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }

    private func send(_ answer: Result<Connection.Answer, DBusError>) {
        guard expectsReply else { return }
        let (caller, connection) = (self.caller, self.connection)
        connection.perform { connection.reply(to: caller, with: answer) }
    }
}
