import LocifyCore

/// A dozen people for `locify seed --demo`: varied names (accents, Cyrillic, CJK), some birthdays
/// with and without a year, a few starred, so a new instance looks lived in.
enum DemoContacts {
    static let drafts: [ContactDraft] = [
        ContactDraft(
            firstName: "Amélie", lastName: "Laurent", nickname: "Ami",
            description: "Met at the Lyon climbing gym. Loves bouldering and bad puns.",
            email: "amelie.laurent@example.com", birthdateDay: 14, birthdateMonth: 3, birthdateYear: 1990,
            genderName: "F",
            isStarred: true),
        ContactDraft(
            firstName: "Jonas", lastName: "Becker", description: "Former colleague from the Berlin office.",
            email: "jonas.becker@example.org", birthdateDay: 2, birthdateMonth: 11, genderName: "M"),
        ContactDraft(
            firstName: "Priya", lastName: "Raman", nickname: "Pri",
            description: "College roommate. Lives in Bengaluru now.",
            email: "priya.raman@example.in", birthdateDay: 29, birthdateMonth: 2, birthdateYear: 1992, genderName: "F",
            isStarred: true),
        ContactDraft(
            firstName: "Mateo", lastName: "García", email: "mateo.garcia@example.es", birthdateDay: 21,
            birthdateMonth: 7, birthdateYear: 1985, genderName: "M"),
        ContactDraft(
            firstName: "Дмитрий", lastName: "Иванов", nickname: "Dima", description: "Chess club on Thursdays.",
            email: "dmitry.ivanov@example.net", birthdateDay: 9, birthdateMonth: 5, genderName: "M"),
        ContactDraft(
            firstName: "Yuki", lastName: "Tanaka", description: "Pen pal since 2010; visited Kyoto together.",
            email: "yuki.tanaka@example.jp", birthdateDay: 1, birthdateMonth: 1, birthdateYear: 1995, genderName: "O"),
        ContactDraft(
            firstName: "Siobhán", lastName: "O'Connor", nickname: "Shiv", email: "siobhan.oconnor@example.ie",
            birthdateDay: 17, birthdateMonth: 3, genderName: "F"),
        ContactDraft(
            firstName: "Kwame", lastName: "Mensah",
            description: "Neighbour; keeps an eye on the plants when we travel.",
            email: "kwame.mensah@example.com", birthdateDay: 30, birthdateMonth: 9, birthdateYear: 1978,
            genderName: "M",
            isStarred: true),
        ContactDraft(
            firstName: "Lena", lastName: "Johansson", email: "lena.johansson@example.se", birthdateDay: 31,
            birthdateMonth: 12, birthdateYear: 2001, genderName: "F"),
        ContactDraft(
            firstName: "王", lastName: "芳", nickname: "Fang", description: "Tea ceremony teacher.",
            email: "wang.fang@example.cn", genderName: "F"),
        ContactDraft(
            firstName: "Olivia", lastName: "Smith", description: "Book club organiser.",
            email: "olivia.smith@example.co.uk",
            birthdateDay: 8, birthdateMonth: 8, birthdateYear: 1988, genderName: "F"),
        ContactDraft(
            firstName: "Noah", lastName: "Cohen", nickname: "Noa", email: "noah.cohen@example.com", birthdateDay: 23,
            birthdateMonth: 6, genderName: "M"),
    ]
}
