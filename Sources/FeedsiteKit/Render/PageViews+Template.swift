// Template lookups: each view model answers `{{name}}` with a switch (no reflection).
// `PageViewsTests` checks every stored property is answered here.

extension SiteView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .title?: return self.title.templateValue
        case .description?: return self.description?.templateValue
        case .generator?: return self.generator.templateValue
        case .hasFeeds?: return self.hasFeeds.templateValue
        case .noindex?: return self.noindex.templateValue
        case .buildTime?: return self.buildTime?.templateValue
        case .language?: return self.language.templateValue
        case .timeZone?: return self.timeZone.templateValue
        default: return nil
        }
    }
}

extension PageMeta: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .kind?: return self.kind.templateValue
        case .url?: return self.url?.templateValue
        case .canonical?: return self.canonical?.templateValue
        case .description?: return self.description?.templateValue
        case .image?: return self.image?.templateValue
        case .prev?: return self.prev?.templateValue
        case .next?: return self.next?.templateValue
        default: return nil
        }
    }
}

extension DateView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .iso?: return self.iso.templateValue
        case .display?: return self.display.templateValue
        case .long?: return self.long.templateValue
        default: return nil
        }
    }
}

extension ItemSummaryView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .title?: return self.title.templateValue
        case .url?: return self.url.templateValue
        case .feedName?: return self.feedName.templateValue
        case .feedURL?: return self.feedURL.templateValue
        case .date?: return self.date?.templateValue
        case .excerpt?: return self.excerpt?.templateValue
        case .authors?: return self.authors?.templateValue
        case .lang?: return self.lang?.templateValue
        default: return nil
        }
    }
}

extension FeedLinkView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .name?: return self.name.templateValue
        case .url?: return self.url.templateValue
        case .itemCount?: return self.itemCount.templateValue
        default: return nil
        }
    }
}

extension PaginationView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .prev?: return self.prev?.templateValue
        case .next?: return self.next?.templateValue
        case .current?: return self.current.templateValue
        case .total?: return self.total.templateValue
        case .isNeeded?: return self.isNeeded.templateValue
        default: return nil
        }
    }
}

extension EnclosureView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .url?: return self.url.templateValue
        case .type?: return self.type?.templateValue
        case .size?: return self.size?.templateValue
        case .label?: return self.label.templateValue
        case .isAudio?: return self.isAudio.templateValue
        case .isVideo?: return self.isVideo.templateValue
        default: return nil
        }
    }
}

extension IndexPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .meta?: return self.meta.templateValue
        case .heading?: return self.heading.templateValue
        case .isFirstPage?: return self.isFirstPage.templateValue
        case .items?: return self.items.templateValue
        case .feeds?: return self.feeds.templateValue
        case .pagination?: return self.pagination.templateValue
        default: return nil
        }
    }
}

extension FeedPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .meta?: return self.meta.templateValue
        case .feed?: return self.feed.templateValue
        case .pagination?: return self.pagination.templateValue
        default: return nil
        }
    }
}

extension FeedView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .name?: return self.name.templateValue
        case .staleNote?: return self.staleNote?.templateValue
        case .description?: return self.description?.templateValue
        case .siteLink?: return self.siteLink?.templateValue
        case .feedLink?: return self.feedLink.templateValue
        case .image?: return self.image?.templateValue
        case .items?: return self.items.templateValue
        default: return nil
        }
    }
}

extension ItemPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .meta?: return self.meta.templateValue
        case .item?: return self.item.templateValue
        default: return nil
        }
    }
}

extension ItemLinkView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .title?: return self.title.templateValue
        case .url?: return self.url.templateValue
        default: return nil
        }
    }
}

extension ItemView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .title?: return self.title.templateValue
        case .link?: return self.link?.templateValue
        case .feedName?: return self.feedName.templateValue
        case .feedURL?: return self.feedURL.templateValue
        case .feedImage?: return self.feedImage?.templateValue
        case .feedSiteLink?: return self.feedSiteLink?.templateValue
        case .lang?: return self.lang?.templateValue
        case .authors?: return self.authors?.templateValue
        case .date?: return self.date?.templateValue
        case .readingTime?: return self.readingTime?.templateValue
        case .content?: return self.content.templateValue
        case .categories?: return self.categories.templateValue
        case .hasCategories?: return self.hasCategories.templateValue
        case .enclosures?: return self.enclosures.templateValue
        case .hasEnclosures?: return self.hasEnclosures.templateValue
        case .newer?: return self.newer?.templateValue
        case .older?: return self.older?.templateValue
        default: return nil
        }
    }
}

extension ArchiveIndexPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .meta?: return self.meta.templateValue
        case .years?: return self.years.templateValue
        default: return nil
        }
    }
}

extension ArchiveYearView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .year?: return self.year.templateValue
        case .months?: return self.months.templateValue
        default: return nil
        }
    }
}

extension ArchiveMonthLinkView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .name?: return self.name.templateValue
        case .url?: return self.url.templateValue
        case .itemCount?: return self.itemCount.templateValue
        default: return nil
        }
    }
}

extension ArchiveMonthPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .meta?: return self.meta.templateValue
        case .name?: return self.name.templateValue
        case .items?: return self.items.templateValue
        case .archiveURL?: return self.archiveURL.templateValue
        case .pagination?: return self.pagination.templateValue
        case .newerMonth?: return self.newerMonth?.templateValue
        case .olderMonth?: return self.olderMonth?.templateValue
        case .hasOtherMonths?: return self.hasOtherMonths.templateValue
        default: return nil
        }
    }
}

extension StatusPage: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .site?: return self.site.templateValue
        case .root?: return self.root.templateValue
        case .pageTitle?: return self.pageTitle.templateValue
        case .summary?: return self.summary.templateValue
        case .feeds?: return self.feeds.templateValue
        default: return nil
        }
    }
}

extension FeedStatusView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .name?: return self.name.templateValue
        case .url?: return self.url.templateValue
        case .configuredURL?: return self.configuredURL?.templateValue
        case .page?: return self.page?.templateValue
        case .health?: return self.health.templateValue
        case .isFetched?: return self.isFetched.templateValue
        case .note?: return self.note?.templateValue
        case .httpStatus?: return self.httpStatus?.templateValue
        case .bytes?: return self.bytes?.templateValue
        case .items?: return self.items.templateValue
        case .read?: return self.read.templateValue
        case .kept?: return self.kept.templateValue
        case .dropped?: return self.dropped.templateValue
        case .accounting?: return self.accounting.templateValue
        case .newItems?: return self.newItems.templateValue
        case .lastSuccess?: return self.lastSuccess?.templateValue
        case .consecutiveFailures?: return self.consecutiveFailures.templateValue
        case .lastError?: return self.lastError?.templateValue
        case .warnings?: return self.warnings.templateValue
        case .isStale?: return self.isStale.templateValue
        default: return nil
        }
    }
}

extension DroppedView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .repeatedId?: return self.repeatedId.templateValue
        case .duplicates?: return self.duplicates.templateValue
        case .maxItems?: return self.maxItems.templateValue
        case .keepDays?: return self.keepDays.templateValue
        case .futureDate?: return self.futureDate.templateValue
        default: return nil
        }
    }
}

extension DuplicateView: TemplateObject {
    func value(for key: TemplateKey?, named name: String) -> TemplateValue? {
        switch key {
        case .title?: return self.title.templateValue
        case .link?: return self.link?.templateValue
        case .feedName?: return self.feedName.templateValue
        case .feedURL?: return self.feedURL.templateValue
        default: return nil
        }
    }
}
