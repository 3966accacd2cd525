import Foundation
import LiveryCore

/// The switch queue: every switch, variant change and reload runs here, one at a time in the
/// order asked, is published, then saved, then answered.
extension Service {
    /// Queues a switch to theme `id` (an alias activates the scheme it names) and returns at
    /// once; `done` gets the result on the switch queue once the change is published and saved.
    public func setTheme(_ id: String, then done: @escaping @Sendable (Result<Void, ServiceError>) -> Void) {
        let themes = self.themes
        enqueue({ () throws(ServiceError) in ((), try themes.setTheme(id)) }, then: done)
    }

    /// Queues a switch to the theme of `variant` (`ThemeService.setVariant`) and returns at
    /// once; `done` gets the active theme's id afterwards, or the failure, which also stays in
    /// `problems` until a switch succeeds.
    /// - Parameter logsFailure: Whether a failure is logged too, for callers with nobody to
    ///   read it (the schedule, darkman's `Mode`).
    public func setVariant(
        _ variant: String, logsFailure: Bool = false,
        then done: (@Sendable (Result<String, ServiceError>) -> Void)? = nil
    ) {
        let (themes, log) = (self.themes, self.log)
        enqueue(
            { () throws(ServiceError) in
                do throws(ServiceError) {
                    let (id, change) = try themes.setVariant(variant)
                    return (id, change)
                } catch {
                    if logsFailure {
                        log(.warning, "cannot switch to the \(variant) variant: \(error.message)")
                    }
                    throw error
                }
            }, then: { done?($0) })
    }

    /// Queues a switch to the active theme's sibling of the other variant (`ThemeService.toggle`);
    /// `done` gets the new theme's id, or the failure.
    public func toggle(then done: @escaping @Sendable (Result<String, ServiceError>) -> Void) {
        let themes = self.themes
        enqueue({ () throws(ServiceError) in try themes.toggle() }, then: done)
    }

    /// Queues a reload (`Reload`) after the switches queued before: the search path and the
    /// overrides read again, the change published; when nothing changed, every export, hook and
    /// command runs again anyway (outputs deleted or edited by hand are written again). `done`
    /// runs on the switch queue, with the refusal after `retire`.
    public func reload(then done: @escaping @Sendable (ServiceError?) -> Void) {
        switches.async { [weak self] in
            guard let self else { return }
            if let refusal = self.refusal.withLock({ $0 }) { return done(refusal) }
            if !self.reloadNow() { self.plugins?.renderAgain() }
            done(nil)
        }
    }

    /// Queues a reload after the switches already queued and returns at once (live reload).
    /// While one is queued and not begun, another is not queued: the one waiting reads every
    /// file when it begins, so however often files change, reloads never pile up.
    public func reloadLater() {
        let queue = liveReloadQueued.withLock { queued in
            defer { queued = true }
            return !queued
        }
        guard queue else { return }
        switches.async { [weak self] in
            self?.liveReloadQueued.withLock { $0 = false }
            guard let self, self.refusal.withLock({ $0 }) == nil else { return }
            self.reloadNow()
        }
    }

    /// Stops taking switches because another instance took over: every switch, variant change
    /// and reload that has not started yet fails with `refusal` (nothing changed); the one under
    /// way finishes, saved before it is answered; then `done` runs on the switch queue, once the
    /// plugins have rendered the last change.
    public func retire(refusing refusal: ServiceError, then done: @escaping @Sendable () -> Void) {
        self.refusal.withLock { $0 = refusal }
        switches.async { [weak self] in
            self?.plugins?.drain()
            done()
        }
    }

    /// Runs `work` on the switch queue: publishes the change it returns, saves, announces the
    /// problems and then gives `done` its value, or its error.
    private func enqueue<T>(
        _ work: @escaping @Sendable () throws(ServiceError) -> (T, ThemeService.Change?),
        then done: @escaping @Sendable (Result<T, ServiceError>) -> Void
    ) {
        let asked = DispatchTime.now().uptimeNanoseconds
        switches.async { [weak self] in
            guard let self else { return }
            if let refusal = self.refusal.withLock({ $0 }) { return done(.failure(refusal)) }
            let result: Result<T, ServiceError>
            self.themes.askedAt.withLock { $0 = asked }
            do throws(ServiceError) {
                let (value, change) = try work()
                if let change { self.publish(change) }
                self.themes.savePending()
                result = .success(value)
            } catch {
                result = .failure(error)
            }
            self.themes.askedAt.withLock { $0 = nil }
            self.announceProblems()
            SystemCalls.returnFreedMemory()
            done(result)
        }
    }

    /// A reload, on the switch queue.
    /// - Returns: whether a change was published (and so handed to the plugins).
    @discardableResult
    private func reloadNow() -> Bool {
        let change = themes.reload()
        if let change { publish(change) }
        announceProblems()
        SystemCalls.returnFreedMemory()
        return change != nil
    }
}
