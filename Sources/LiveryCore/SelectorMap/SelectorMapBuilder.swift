extension SelectorMap {
    /// Builds a map's tables from a compiled theme, a step at a time: the schema's types,
    /// states and properties interned first (`init`), then each rule in rank order (`ranked`,
    /// `add`: its compounds encoded on interned ids, its declarations stored once per block),
    /// then the buckets laid out by id (`finish`).
    struct Builder {
        /// Type name to id: the schema's types in name order.
        let typeIDs: [String: Int32]
        /// State name to bit (`normal` has none).
        let stateBits: [String: UInt64]
        /// Property names in index order, and name to index.
        let propertyNames: [String]
        let propertyIndex: [String: Int]
        /// Every value a style can hold: the initial values, then the declared ones.
        var values = ValueInterner()
        /// `#name`, `.class` and `@app` ids, numbered as the rules first use them.
        private(set) var nameIDs: [String: Int32] = [:]
        private(set) var classIDs: [String: Int32] = [:]
        private(set) var appIDs: [String: Int32] = [:]
        private var tables = Tables()
        /// The first declaration of each block already stored: the rules of one block share
        /// their declarations.
        private var blockStarts: [Int: Int32] = [:]

        init(schema: Schema) {
            let typeNames = schema.types.keys.sorted()
            var ids: [String: Int32] = [:]
            for (i, t) in typeNames.enumerated() { ids[t] = Int32(i) }
            typeIDs = ids
            stateBits = Self.stateBits(of: schema)
            propertyNames = schema.properties.keys.sorted()
            var index: [String: Int] = [:]
            for (i, p) in propertyNames.enumerated() { index[p] = i }
            propertyIndex = index
            internTypes(typeNames, of: schema)
            tables.propertyCount = propertyNames.count
            tables.inherits = ContiguousArray(propertyNames.map { schema.properties[$0]!.inherits })
            tables.initialSlots = ContiguousArray(
                propertyNames.map { values.intern(schema.properties[$0]!.initial) })
        }

        /// Each type's chain as ids and the table of which type is a kind of which.
        private mutating func internTypes(_ typeNames: [String], of schema: Schema) {
            let count = typeNames.count
            var kind = ContiguousArray<Bool>(repeating: false, count: count * count)
            var chains: [[Int32]] = []
            for (i, t) in typeNames.enumerated() {
                let chain = schema.chain(of: t)
                for s in chain { kind[i * count + Int(typeIDs[s]!)] = true }
                chains.append(chain.map { typeIDs[$0]! })
            }
            tables.typeCount = count
            tables.isKind = kind
            tables.chains = chains
        }

        /// A bit for each state but `normal` (which is the absence of the others). The schema
        /// has at most 64 of them, each listed once.
        private static func stateBits(of schema: Schema) -> [String: UInt64] {
            var bits: [String: UInt64] = [:]
            for s in schema.states where s != "normal" { bits[s] = 1 << UInt64(bits.count) }
            return bits
        }

        /// The rules in rank order (`CascadeOrder.precedes`: a later one wins), without the
        /// lower of a selector listed twice in one block (`Button, Button { … }`): both set the
        /// same values and only the higher can win, so a node matching a list of S copies
        /// applies one block, not S.
        static func ranked(_ rules: [CompiledRule]) -> [CompiledRule] {
            struct Listing: Hashable {
                var block: Int
                var selector: String
            }
            let ranked = rules.sorted(by: CascadeOrder.precedes)
            var seen = Set<Listing>()
            var kept = [Bool](repeating: true, count: ranked.count)
            for i in ranked.indices.reversed() {
                kept[i] =
                    seen.insert(Listing(block: ranked[i].block, selector: ranked[i].selector.text)).inserted
            }
            return zip(ranked, kept).filter(\.1).map(\.0)
        }

        /// Stores rule `rule` at `rank` (rules are added in rank order).
        /// - Returns: its candidate for the buckets, and its subject, encoded.
        mutating func add(_ rule: CompiledRule, rank: Int) -> (Candidate, Compound) {
            let compoundStart = Int32(tables.compounds.count)
            let selector = rule.selector
            for (i, c) in selector.compounds.enumerated() {
                let combinator: UInt8 =
                    i + 1 < selector.compounds.count ? (selector.combinators[i] == .child ? 2 : 1) : 0
                tables.compounds.append(encode(c, combinator: combinator))
            }
            let app = rule.app.map { Self.id($0, in: &appIDs) } ?? -1
            tables.rules.append(
                Rule(
                    compoundStart: compoundStart, compoundCount: Int32(selector.compounds.count), app: app,
                    declarationStart: declarations(of: rule),
                    declarationCount: Int32(rule.declarations.count),
                    order: Int32(rule.order)))
            let subject = tables.compounds[tables.compounds.count - 1]
            let candidate = Candidate(
                rank: Int32(rank), states: subject.states, exact: subject.exact && app == -1,
                classMask: subject.classMask)
            return (candidate, subject)
        }

        /// The id of the first class of an encoded compound, if it has one.
        func firstClass(of c: Compound) -> Int32? {
            c.classCount > 0 ? tables.classes[Int(c.classStart)] : nil
        }

        /// Compound `c` on interned ids, its classes appended to the class list, with the masks
        /// that decide it when every id is below 64 (`Compound.exact`).
        private mutating func encode(_ c: CompoundSelector, combinator: UInt8) -> Compound {
            let classStart = Int32(tables.classes.count)
            for k in c.classes { tables.classes.append(Self.id(k, in: &classIDs)) }
            var required: UInt64 = 0
            for s in c.states { required |= stateBits[s] ?? 0 }
            let name: Int32 =
                c.names.isEmpty ? -1 : (Set(c.names).count > 1 ? -2 : Self.id(c.names[0], in: &nameIDs))
            var compound = Compound(
                type: c.type.map { typeIDs[$0] ?? -2 } ?? -1, name: name, states: required,
                normal: c.states.contains("normal"), classStart: classStart,
                classCount: Int32(c.classes.count), combinator: combinator)
            let own = tables.classes[Int(classStart)...]
            if (0..<64).contains(compound.type) { compound.typeMask = 1 << UInt64(compound.type) }
            for k in own where k < 64 { compound.classMask |= 1 << UInt64(k) }
            compound.exact =
                (compound.type == -1 || (0..<64).contains(compound.type)) && compound.name != -2
                && !compound.normal && own.allSatisfy { $0 < 64 }
            return compound
        }

        /// The start of the rule's declarations (property index, value slot), stored at the
        /// first rule of its block and shared by the others.
        private mutating func declarations(of rule: CompiledRule) -> Int32 {
            if let start = blockStarts[rule.block] { return start }
            let start = Int32(tables.declarationProperties.count)
            blockStarts[rule.block] = start
            for d in rule.declarations {
                tables.declarationProperties.append(Int32(propertyIndex[d.property]!))
                tables.declarationValues.append(values.intern(d.value))
            }
            return start
        }

        /// The id of `s` in `table`, the next free one when it has none yet.
        private static func id(_ s: String, in table: inout [String: Int32]) -> Int32 {
            if let i = table[s] { return i }
            table[s] = Int32(table.count)
            return Int32(table.count - 1)
        }

        /// The tables, with the buckets laid out as arrays by id.
        func finish(_ buckets: Buckets) -> Tables {
            var t = tables
            t.byName = (0..<nameIDs.count).map { buckets.byName[Int32($0)] ?? [] }
            t.byClass = (0..<classIDs.count).map { buckets.byClass[Int32($0)] ?? [] }
            t.byType = (0..<t.typeCount).map { buckets.byType[Int32($0)] ?? [] }
            t.universal = buckets.universal
            t.freeByType = (0..<t.typeCount).map { buckets.freeByType[Int32($0)] ?? [] }
            t.freeUniversal = buckets.freeUniversal
            t.nameIDs = nameIDs
            t.classIDs = classIDs
            return t
        }
    }

    /// Values numbered in the order they are first seen, each once.
    struct ValueInterner {
        private(set) var values: [Value] = []
        private var ids: [Value: Int32] = [:]

        /// The slot of `v`, a new one when it was not seen before.
        mutating func intern(_ v: Value) -> Int32 {
            if let i = ids[v] { return i }
            values.append(v)
            ids[v] = Int32(values.count - 1)
            return Int32(values.count - 1)
        }
    }
}
