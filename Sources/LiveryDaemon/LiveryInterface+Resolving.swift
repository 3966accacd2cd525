import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService

/// `ListThemes`, `Resolve`, `ResolveMany` and `Explain`: reading the active theme.
extension LiveryInterface {
    /// `ListThemes() → a(ssa{sv})`: every installed theme, checked or not.
    var listThemesMethod: Method {
        let service = self.service.themes
        return Method(.listThemes) { _ in
            [
                .array(
                    element: ThemeListing.signature,
                    service.listThemes().map { LiveryInterface.listing($0).dbusValue })
            ]
        }
    }

    /// `Resolve(s path, as properties, a{sv} options) → a{sv}`: on the loop thread, from the reply
    /// cache when the same call was answered in this theme generation.
    var resolveMethod: Method {
        let service = self.service.themes
        return Method.prepared(.resolve) { [replies] call in
            // The key is the call's body, so a repeated call is answered before its
            // arguments are read (and its bytes looked up where they lie); a reply is stored
            // under the generation it was resolved in, so a switch in between cannot leave an
            // old answer behind.
            let generation = service.generation
            if let hit = call.withMarshalledBody({ replies.lookup(generation, body: $0) }) { return hit }
            let key = ReplyCache.Key(call.marshalledBody)
            let app = try LiveryInterface.app(call.arguments[2])
            let path = call.arguments[0].string ?? ""
            let properties = call.arguments[1].stringArray ?? []
            let resolution = try service.resolve(path, properties: properties, app: app)
            let reply = try PreparedValues([PropertyValues(resolved: resolution.values).dbusValue])
            replies.store(resolution.generation, key, reply)
            return reply
        }
    }

    /// `ResolveMany(a(sas) requests, a{sv} options) → aa{sv}`.
    var resolveManyMethod: Method {
        let service = self.service.themes
        return Method(.resolveMany) { call in
            let app = try LiveryInterface.app(call.arguments[1])
            let items = (call.arguments[0].array ?? []).map {
                let request = ResolveRequest(decoding: $0)
                return (path: request.path, properties: request.properties)
            }
            let results = try service.resolveMany(items, app: app)
            return [.array(element: "a{sv}", results.map { PropertyValues(resolved: $0).dbusValue })]
        }
    }

    /// `Explain(s path, s property, a{sv} options) → aa{sv}`: the candidates in cascade order,
    /// answered from a worker thread.
    var explainMethod: Method {
        let service = self.service.themes
        return Method.deferred(.explain) { call, reply in
            // Explaining walks every rule that matches, however many a theme's selector lists
            // make: answered from a worker thread, so that the loop thread goes on answering
            // the calls behind it.
            let app = try LiveryInterface.app(call.arguments[2])
            let (path, property) = (call.arguments[0].string ?? "", call.arguments[1].string ?? "")
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    let e = try service.explain(path, property: property, app: app)
                    reply.succeed([.array(element: "a{sv}", ExplainEntry.entries(for: e).map(\.dbusValue))])
                } catch {
                    reply.fail(error)
                }
            }
        }
    }

    /// The bus form of one installed theme.
    static func listing(_ l: ThemeService.Listing) -> ThemeListing {
        ThemeListing(
            id: l.metadata.id, name: l.metadata.name, variant: l.metadata.variant,
            description: l.metadata.description, path: l.metadata.path, format: l.metadata.format,
            valid: l.valid, errors: l.errors, checked: l.checked, inherits: l.metadata.inherits,
            accentColor: l.metadata.accentColor?.hex)
    }
}
