/// What every template can read besides its page's view: `{{t.key}}` (or `{{#t}}{{key}}{{/t}}`),
/// the interface strings of the site's language. Rendered below the page on the context stack, so
/// a page's own names come first; written by hand because its names are the catalogue's keys
/// (`Templates/strings/en.yml`), not a view type's properties.
struct TemplateGlobals: TemplateObject {
    /// The name the template check knows this scope by.
    static let typeName = "TemplateGlobals"
    /// The name the check knows the catalogue's type by.
    static let catalogueTypeName = "MessageCatalogue"

    var t: MessageCatalogue

    func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {
        name.parts[position] == "t" ? t.value(name, after: position) : nil
    }
}

extension MessageCatalogue: TemplateObject {
    /// A key's text; a key the catalogue does not have is nothing (the check warned when the
    /// templates were loaded).
    func value(_ name: Template.NameView, at position: Int) -> TemplateValue? {
        guard let text = text(name.parts[position]) else { return nil }
        return position + 1 < name.parts.count ? .nothing : .string(text)
    }
}

extension TemplateSchema {
    /// `viewTypes` with the globals every page has: `t`, whose fields are the English catalogue's keys.
    static let viewTypesWithGlobals: [String: [String: Kind]] = {
        var types = viewTypes
        types[TemplateGlobals.typeName] = ["t": .object(TemplateGlobals.catalogueTypeName)]
        types[TemplateGlobals.catalogueTypeName] = Dictionary(
            uniqueKeysWithValues: MessageCatalogue.builtInEnglish.compactMap { key, entry in
                if case .list = entry { return nil }
                return (key, Kind.string)
            })
        return types
    }()
}
