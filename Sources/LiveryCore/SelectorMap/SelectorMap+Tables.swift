extension SelectorMap {
    /// The tables in growable arrays, as `Builder` fills them, before `FrozenTables` copies
    /// them into flat buffers.
    struct Tables {
        var rules = ContiguousArray<Rule>()
        var compounds = ContiguousArray<Compound>()
        var classes = ContiguousArray<Int32>()
        /// Declarations: property index and value slot.
        var declarationProperties = ContiguousArray<Int32>()
        var declarationValues = ContiguousArray<Int32>()
        /// Candidates by subject bucket, each in rank order.
        var byName: [ContiguousArray<Candidate>] = []
        var byClass: [ContiguousArray<Candidate>] = []
        var byType: [ContiguousArray<Candidate>] = []
        var universal = ContiguousArray<Candidate>()
        /// The rules of `byType` and `universal` without containers (see `FrozenTables.freeTypeBuckets`).
        var freeByType: [ContiguousArray<Candidate>] = []
        var freeUniversal = ContiguousArray<Candidate>()
        /// `isKind[sub * typeCount + sup]`: `sub` is `sup` or derives from it.
        var isKind = ContiguousArray<Bool>()
        var typeCount = 0
        /// Each type's chain as ids, most derived first.
        var chains: [[Int32]] = []
        var inherits = ContiguousArray<Bool>()
        /// The initial value of every property, as slots.
        var initialSlots = ContiguousArray<Int32>()
        var propertyCount = 0
        var nameIDs: [String: Int32] = [:]
        var classIDs: [String: Int32] = [:]
    }
}

extension SelectorMap.Tables {
    /// The type of rule `rank`'s subject (−1 for `*`).
    func subjectType(ofRank rank: Int) -> Int32 {
        let r = rules[rank]
        return compounds[Int(r.compoundStart) + Int(r.compoundCount) - 1].type
    }

    /// The index by node type that `ContainerRules.typeRanges` and `FrozenTables.keyedRanges` are: for a
    /// non-empty list of `items`, `typeCount` ranges appended to `ranges`, one per node type, of
    /// the items whose type (`type`: −1 for `*`, other negative ids match nothing) a node of
    /// that type is a kind of, laid out by `store`. An empty list gets none.
    /// - Returns: the list's first range in `ranges`, or 0 for an empty list (the caller puts a
    ///   block of empty ranges first).
    func byNodeType<Item>(
        _ items: [Item], into ranges: inout [SelectorMap.Bucket], type: (Item) -> Int32,
        store: ([Item]) -> SelectorMap.Bucket
    ) -> Int32 {
        guard !items.isEmpty else { return 0 }
        let base = Int32(ranges.count)
        for t in 0..<typeCount {
            ranges.append(
                store(
                    items.filter {
                        let type = Int(type($0))
                        return type == -1 || (type >= 0 && isKind[t * typeCount + type])
                    }))
        }
        return base
    }
}
