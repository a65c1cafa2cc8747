import Foundation
import LocifyCore
import Vapor

/// Settings → Send feedback: a message to the operator's `LOCIFY_FEEDBACK_EMAIL`, sent through
/// `LOCIFY_SENDMAIL` when the server has it, else handed to the person's own mail app as a prefilled
/// `mailto:`. Either way it says which version of Locify it is about.
struct FeedbackWebController: RouteCollection {
    static let maximumLength = 5_000

    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePaths.settingsFeedback, use: page)
        routes.post(SitePaths.settingsFeedback, use: send)
    }

    func page(request: Request) async throws -> View {
        try await render(request, message: nil, errors: [:])
    }

    private func render(_ request: Request, message: String?, errors: FieldMessages) async throws -> View {
        let outside = request.application.locifyConfig.outside
        return try await request.view.render(
            "settings/feedback",
            FeedbackPage.Context(
                address: outside.feedbackEmail, sendsHere: outside.mailCommand != nil, message: message,
                errors: errors, session: request.pageSession))
    }

    struct Form: Content {
        var message: String?
    }

    func send(request: Request) async throws -> Response {
        let typed = try request.content.decode(Form.self).message
        let outside = request.application.locifyConfig.outside
        guard let address = outside.feedbackEmail else { return request.redirect(to: SitePaths.settingsFeedback.path) }
        let message = typed?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return try await request.handleForm {
            if message.isEmpty { throw ValidationFailure(field: "message", "Write your message first.") }
            if message.unicodeScalars.count > Self.maximumLength {
                throw ValidationFailure(
                    field: "message",
                    "A message can be at most \(Self.maximumLength) characters; this one is "
                        + "\(message.unicodeScalars.count).")
            }
            let user = try request.requireUser()
            let mail = FeedbackPage.mail(
                message: message, name: user.profile.name, email: user.profile.email, to: address,
                from: outside.mailFrom, date: request.dependencies.now(),
                messageID: "\(request.dependencies.newUUID().lowercasedText)@locify")
            guard outside.mailCommand != nil else {
                // No mail on this server: the person's own mail app sends it.
                return .page(request.redirect(to: FeedbackPage.mailtoURL(mail)))
            }
            do {
                try await request.dependencies.mailer.send(mail)
            } catch {
                request.logger.warning("Feedback could not be sent: \(error)")
                // Said beside the message, which stays typed, so nothing is lost.
                throw ValidationFailure(
                    field: "message",
                    "The server could not send it just now. Try again later, or write from your own mail app.")
            }
            return .redirect(to: SitePaths.settings.path, flash: "Thank you: your feedback was sent.")
        } redraw: { errors in
            try await render(request, message: typed, errors: errors)
        }
    }
}

enum FeedbackPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let hasAddress: Bool
        let sendsHere: Bool
        let field: FormField
        let actionURL: String
        let mailtoURL: String?
        let version: String

        init(address: String?, sendsHere: Bool, message: String?, errors: FieldMessages, session: PageSession) {
            layout = LayoutContext(title: "Send feedback", section: .settings, session: session)
            hasAddress = address != nil
            self.sendsHere = sendsHere
            field = FormField(
                "message", label: "Your message", control: .textarea, value: message, errors: errors,
                hint: "What works, what does not, what you miss. Locify \(LocifyConfig.version) is named with it.",
                isRequired: true, maxLength: FeedbackWebController.maximumLength)
            actionURL = SitePaths.settingsFeedback.path
            mailtoURL = address.map {
                FeedbackPage.mailtoURL(
                    to: $0, subject: FeedbackPage.subject, body: "\n\n--\nLocify \(LocifyConfig.version)\n")
            }
            version = LocifyConfig.version
        }
    }

    static let subject = "Locify feedback"

    static func mail(
        message: String, name: String, email: String, to address: String, from: String, date: Date,
        messageID: String
    ) -> MailMessage {
        MailMessage(
            from: from, to: [address], subject: "\(subject) from \(name)",
            body: "\(message)\n\n--\nFrom \(name) <\(email)>\nLocify \(LocifyConfig.version)\n", date: date,
            messageID: messageID)
    }

    static func mailtoURL(_ mail: MailMessage) -> String {
        mailtoURL(to: mail.to.joined(separator: ","), subject: mail.subject, body: mail.body)
    }

    static func mailtoURL(to address: String, subject: String, body: String) -> String {
        "mailto:\(address)?subject=\(URIComponent.encoded(subject))&body=\(URIComponent.encoded(body))"
    }
}
