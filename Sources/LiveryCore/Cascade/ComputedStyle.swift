/// The values a compiled theme's styles refer to by slot.
public final class ValueTable: Sendable {
    /// The distinct values, indexed by `ComputedStyle.slots`.
    public let values: [Value]
    init(_ values: [Value]) { self.values = values }
}

/// The values of every property of one node, in `StyleWalker.propertyNames` order, as slots of
/// the theme's value table.
public struct ComputedStyle: Sendable {
    /// Per property, the index of its value in the table.
    public var slots: ContiguousArray<Int32>
    let table: ValueTable
    /// With `StyleWalker.tracksWinners`: per property, the source order (`CompiledRule.order`)
    /// of the rule whose declaration won, or −1 when no declaration matched. Empty otherwise.
    package var winners: ContiguousArray<Int32> = []

    /// The number of properties.
    public var count: Int { slots.count }
    /// The value of the property at `index`.
    public func value(at index: Int) -> Value { table.values[Int(slots[index])] }
    /// Every value, materialised.
    public var values: [Value] { slots.map { table.values[Int($0)] } }
}
