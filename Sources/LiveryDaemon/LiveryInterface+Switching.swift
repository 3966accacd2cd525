import Foundation
import LiveryAPI
import LiveryDBus
import LiveryService

/// `SetTheme`, `SetVariant`, `Toggle` and `Reload`: deferred methods, handed to the service's
/// switch queue and answered from it once the change is published and saved; the loop thread
/// goes on answering meanwhile.
extension LiveryInterface {
    /// `SetTheme(s id)`.
    var setThemeMethod: Method {
        let service = self.service
        return Method.deferred(.setTheme) { call, reply in
            service.setTheme(call.arguments[0].string ?? "") { result in
                LiveryInterface.answer(reply, result.map { [] })
            }
        }
    }

    /// `SetVariant(s variant) → s`: the theme of `dark` or `light`.
    var setVariantMethod: Method {
        let service = self.service
        return Method.deferred(.setVariant) { call, reply in
            let variant = call.arguments[0].string ?? ""
            guard variant == "dark" || variant == "light" else {
                reply.fail(DBusError(.invalidArgs, "variant '\(variant)': expected 'dark' or 'light'"))
                return
            }
            service.setVariant(variant) { result in
                LiveryInterface.answer(reply, result.map { [.string($0)] })
            }
        }
    }

    /// `Toggle() → s`: the other variant.
    var toggleMethod: Method {
        let service = self.service
        return Method.deferred(.toggle) { _, reply in
            service.toggle { result in LiveryInterface.answer(reply, result.map { [.string($0)] }) }
        }
    }

    /// `Reload()`: rescans the themes and runs every export again, after the switches before.
    var reloadMethod: Method {
        let service = self.service
        return Method.deferred(.reload) { _, reply in
            service.reload { failure in
                LiveryInterface.answer(reply, failure.map { .failure($0) } ?? .success([]))
            }
        }
    }

    /// Answers a deferred call with `result`'s values or its error.
    static func answer(_ reply: PendingReply, _ result: Result<[DBusValue], ServiceError>) {
        switch result {
        case .success(let values): reply.succeed(values)
        case .failure(let error): reply.fail(error)
        }
    }
}
