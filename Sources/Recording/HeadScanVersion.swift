/// The version written into the files this build creates.
public enum HeadScanVersion {
    /// Semantic version of the HeadScan tools and libraries.
    public static let current = "0.1.0"
}
