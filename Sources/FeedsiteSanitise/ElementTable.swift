extension Dictionary where Key == String {
    /// A lookup table from element names, written as each value with the names that have it. A
    /// name in a later group takes that group's value.
    init(elementNames groups: KeyValuePairs<Value, [String]>) {
        self.init()
        for (value, names) in groups {
            for name in names { self[name] = value }
        }
    }
}
