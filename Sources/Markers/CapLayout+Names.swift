extension CapLayout {
    /// The layouts this build knows by name.
    public static let builtIn: [CapLayout] = [.standard]

    /// Names under which scans record the built-in cap: its own, the one older versions of
    /// the tool wrote, and the ones of scans that do not know their cap (imports, synthetic
    /// frames), which are read with the built-in cap as the best guess.
    static let standardAliases: Set<String> = ["standard-57", "standard", "", "none", "unknown"]

    /// The layout a scan header names; every name the tool writes resolves here.
    public static func named(_ name: String) throws(MarkerError) -> CapLayout {
        if standardAliases.contains(name) { return .standard }
        if let layout = builtIn.first(where: { $0.name == name }) { return layout }
        throw .unknownLayout(name: name, known: builtIn.map(\.name))
    }
}
