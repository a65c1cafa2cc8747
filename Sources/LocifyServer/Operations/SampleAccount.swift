import LocifyCore

/// What the sample data holds: a dozen people (varied names: accents, Cyrillic, CJK) with what a lived-in
/// account has — phone numbers, addresses in several countries with their positions, birthdays and reminders
/// this week, notes, tasks, photos — and saved places in every category across a few cities.
enum SampleAccount {
    struct Person {
        var contact: ContactDraft
        var phone: String?
        var address: PostalAddressDraft?
        var note: String?
        var task: ToDoDraft?
        /// A one-time reminder so many days after today, so it is always upcoming.
        var reminder: (title: String, inDays: Int)?
        var picture: PaintedLandscape?

        /// The sample's name for the person: their e-mail, which also keeps a second fill from adding them twice.
        var key: String { "contact:" + (contact.normalizedEmail ?? "") }
    }

    struct SavedPlace {
        let name: String
        let category: String
        let address: String
        let latitude: Double
        let longitude: Double
        var notes: String? = nil
        var isFavorite = false

        var key: String { "place:" + name }
    }

    /// The people, with one birthday three days after `today` so the week ahead always has one.
    static func people(today: CalendarDate) -> [Person] {
        let soon = today.adding(days: 3) ?? today
        return [
            Person(
                contact: ContactDraft(
                    firstName: "Amélie", lastName: "Laurent", nickname: "Ami",
                    description: "Met at the Lyon climbing gym. Loves bouldering and bad puns.",
                    email: "amelie.laurent@example.com", birthdateDay: 14, birthdateMonth: 3, birthdateYear: 1990,
                    genderName: "F", isStarred: true),
                phone: "+33 6 12 34 56 78",
                address: PostalAddressDraft(
                    label: "Home", street: "12 rue Mercière", city: "Lyon", postalCode: "69002", country: "FR",
                    latitude: 45.7623, longitude: 4.8318),
                note: "Recommends Le Bouchon des Filles for the anniversary dinner; book two weeks ahead.",
                task: ToDoDraft(title: "Give Amélie back her climbing shoes"),
                picture: .mountains),
            Person(
                contact: ContactDraft(
                    firstName: "Jonas", lastName: "Becker", description: "Former colleague from the Berlin office.",
                    email: "jonas.becker@example.org", birthdateDay: 2, birthdateMonth: 11, genderName: "M",
                    job: "Product designer", company: "Kiezwerk"),
                phone: "+49 30 2345 6789",
                address: PostalAddressDraft(
                    label: "Work", street: "Torstraße 49", city: "Berlin", postalCode: "10119", country: "DE",
                    latitude: 52.5291, longitude: 13.4016),
                reminder: ("Call Jonas about the flat in Kreuzberg", 2)),
            Person(
                contact: ContactDraft(
                    firstName: "Priya", lastName: "Raman", nickname: "Pri",
                    description: "College roommate. Lives in Bengaluru now.",
                    email: "priya.raman@example.in", birthdateDay: 29, birthdateMonth: 2, birthdateYear: 1992,
                    genderName: "F", isStarred: true),
                phone: "+91 98450 12345",
                address: PostalAddressDraft(
                    label: "Home", street: "14 Church Street", city: "Bengaluru", province: "Karnataka",
                    postalCode: "560001", country: "IN", latitude: 12.9753, longitude: 77.6046),
                note: "Her sister's wedding is in January: ask whether we can help with the guest list.",
                picture: .sunsetSea),
            Person(
                contact: ContactDraft(
                    firstName: "Mateo", lastName: "García", email: "mateo.garcia@example.es", birthdateDay: 21,
                    birthdateMonth: 7, birthdateYear: 1985, genderName: "M", job: "Chef"),
                phone: "+34 612 345 678",
                address: PostalAddressDraft(
                    label: "Home", street: "Calle de Alcalá 42", city: "Madrid", postalCode: "28014", country: "ES",
                    latitude: 40.4189, longitude: -3.6960)),
            Person(
                contact: ContactDraft(
                    firstName: "Дмитрий", lastName: "Иванов", nickname: "Dima", description: "Chess club on Thursdays.",
                    email: "dmitry.ivanov@example.net", birthdateDay: 9, birthdateMonth: 5, genderName: "M"),
                phone: "+7 912 345-67-89",
                task: ToDoDraft(title: "Lend Dima the Capablanca book", isCompleted: true)),
            Person(
                contact: ContactDraft(
                    firstName: "Yuki", lastName: "Tanaka", description: "Pen pal since 2010; visited Kyoto together.",
                    email: "yuki.tanaka@example.jp", birthdateDay: 1, birthdateMonth: 1, birthdateYear: 1995,
                    genderName: "O"),
                address: PostalAddressDraft(
                    label: "Home", street: "Karasuma-dori 721", city: "Kyoto", province: "Kyoto",
                    postalCode: "600-8216", country: "JP", latitude: 34.9858, longitude: 135.7588),
                reminder: ("Send Yuki the photos from Fushimi Inari", 5)),
            Person(
                contact: ContactDraft(
                    firstName: "Siobhán", lastName: "O'Connor", nickname: "Shiv", email: "siobhan.oconnor@example.ie",
                    birthdateDay: 17, birthdateMonth: 3, genderName: "F"),
                phone: "+353 85 123 4567",
                address: PostalAddressDraft(
                    label: "Home", street: "14 Grafton Street", city: "Dublin", postalCode: "D02 VK65", country: "IE",
                    latitude: 53.3418, longitude: -6.2597)),
            Person(
                contact: ContactDraft(
                    firstName: "Kwame", lastName: "Mensah",
                    description: "Neighbour; keeps an eye on the plants when we travel.",
                    email: "kwame.mensah@example.com", birthdateDay: 30, birthdateMonth: 9, birthdateYear: 1978,
                    genderName: "M", isStarred: true),
                phone: "+44 7700 900123",
                address: PostalAddressDraft(
                    label: "Home", street: "22 Mare Street", city: "London", postalCode: "E8 3RH", country: "GB",
                    latitude: 51.5413, longitude: -0.0561),
                note: "Spare key is with him. Likes Ghanaian jollof and Arsenal.",
                task: ToDoDraft(title: "Water Kwame's plants while he is in Accra")),
            Person(
                contact: ContactDraft(
                    firstName: "Lena", lastName: "Johansson", email: "lena.johansson@example.se", birthdateDay: 31,
                    birthdateMonth: 12, birthdateYear: 2001, genderName: "F"),
                address: PostalAddressDraft(
                    label: "Home", street: "Götgatan 22", city: "Stockholm", postalCode: "118 46", country: "SE",
                    latitude: 59.3157, longitude: 18.0719),
                picture: .forestLake),
            Person(
                contact: ContactDraft(
                    firstName: "王", lastName: "芳", nickname: "Fang", description: "Tea ceremony teacher.",
                    email: "wang.fang@example.cn", genderName: "F"),
                note: "Try the Longjing she brought back from Hangzhou: 80 °C water, three minutes."),
            Person(
                contact: ContactDraft(
                    firstName: "Olivia", lastName: "Smith", description: "Book club organiser.",
                    email: "olivia.smith@example.co.uk", birthdateDay: 8, birthdateMonth: 8, birthdateYear: 1988,
                    genderName: "F"),
                phone: "+44 20 7946 0321",
                address: PostalAddressDraft(
                    label: "Home", street: "10 Charing Cross Road", city: "London", postalCode: "WC2H 0HF",
                    country: "GB", latitude: 51.5098, longitude: -0.1282),
                reminder: ("Finish the book club novel before Olivia's meeting", 6)),
            Person(
                contact: ContactDraft(
                    firstName: "Noah", lastName: "Cohen", nickname: "Noa", email: "noah.cohen@example.com",
                    birthdateDay: soon.day, birthdateMonth: soon.month, genderName: "M"),
                phone: "+1 212 555 0142",
                address: PostalAddressDraft(
                    label: "Work", street: "350 5th Avenue", city: "New York", province: "NY", postalCode: "10118",
                    country: "US", latitude: 40.7484, longitude: -73.9857)),
        ]
    }

    /// Places in every default category, favorites among them, in Lyon, Berlin, London and Kyoto.
    static let places: [SavedPlace] = [
        SavedPlace(
            name: "Le Bouchon des Filles", category: "Restaurant", address: "20 rue Sergent Blandan, 69001 Lyon",
            latitude: 45.7695, longitude: 4.8295, notes: "Lyonnaise classics; the quenelles.", isFavorite: true),
        SavedPlace(
            name: "Café Mokxa", category: "Cafe", address: "3 rue de l'Abbé Rozier, 69001 Lyon", latitude: 45.7687,
            longitude: 4.8346),
        SavedPlace(
            name: "Basilique Notre-Dame de Fourvière", category: "Tourist Attraction",
            address: "8 place de Fourvière, 69005 Lyon", latitude: 45.7624, longitude: 4.8225,
            notes: "The view over the city at sunset.", isFavorite: true),
        SavedPlace(
            name: "Parc de la Tête d'Or", category: "Other", address: "Place Général Leclerc, 69006 Lyon",
            latitude: 45.7772, longitude: 4.8553),
        SavedPlace(
            name: "Mustafa's Gemüse Kebap", category: "Restaurant", address: "Mehringdamm 32, 10961 Berlin",
            latitude: 52.4938, longitude: 13.3880, notes: "Queue is long; worth it."),
        SavedPlace(
            name: "The Barn", category: "Cafe", address: "Auguststraße 58, 10119 Berlin", latitude: 52.5285,
            longitude: 13.4003, isFavorite: true),
        SavedPlace(
            name: "Brandenburger Tor", category: "Tourist Attraction", address: "Pariser Platz, 10117 Berlin",
            latitude: 52.5163, longitude: 13.3777),
        SavedPlace(
            name: "Tempelhofer Feld", category: "Other", address: "Tempelhofer Damm, 12101 Berlin",
            latitude: 52.4733, longitude: 13.4018, notes: "Kites on Sunday afternoons."),
        SavedPlace(
            name: "Dishoom Covent Garden", category: "Restaurant",
            address: "12 Upper St Martin's Lane, London WC2H 9FB",
            latitude: 51.5125, longitude: -0.1270, notes: "Bacon naan roll for breakfast.", isFavorite: true),
        SavedPlace(
            name: "Monmouth Coffee", category: "Cafe", address: "27 Monmouth Street, London WC2H 9EU",
            latitude: 51.5143, longitude: -0.1266),
        SavedPlace(
            name: "British Museum", category: "Tourist Attraction", address: "Great Russell Street, London WC1B 3DG",
            latitude: 51.5194, longitude: -0.1270),
        SavedPlace(
            name: "Hampstead Heath", category: "Other", address: "Hampstead, London NW3 1TH", latitude: 51.5608,
            longitude: -0.1631),
        SavedPlace(
            name: "Fushimi Inari-taisha", category: "Tourist Attraction",
            address: "68 Fukakusa Yabunouchicho, Fushimi Ward, Kyoto", latitude: 34.9671, longitude: 135.7727,
            notes: "Go early; the walk to the top takes two hours.", isFavorite: true),
        SavedPlace(
            name: "% Arabica Higashiyama", category: "Cafe", address: "87-5 Hoshinocho, Higashiyama Ward, Kyoto",
            latitude: 34.9982, longitude: 135.7801),
    ]
}
