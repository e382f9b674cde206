extension BuildFingerprint {
    /// Everything a site depends on besides the state (`stateDigest` stands for it): per-feed
    /// outcomes (the status page), templates, configuration, `static/`, and feedsite's version.
    static func site(_ inputs: BuildInputs, stateDigest: String, records: [FeedRecord]) -> String {
        var fingerprint = BuildFingerprint()
        fingerprint.add(Feedsite.version)
        fingerprint.add(String(reflecting: inputs.configuration))
        fingerprint.add(inputs.publication.staticFiles.signature)
        for source in inputs.templates.sources {
            fingerprint.add(source.name)
            fingerprint.add(source.bytes)
        }
        fingerprint.add(stateDigest)
        for record in records {
            fingerprint.add(
                "\(record.run.status ?? 0) \(record.run.bytes ?? -1) \(record.newItemCount) \(record.failure?.description ?? "")"
                    + " \(record.warnings) \(record.run.notices) \(record.run.info?.permanentRedirect?.absoluteString ?? "")"
            )
        }
        return fingerprint.text
    }
}
