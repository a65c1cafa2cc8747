import LocifyCore
import Vapor

/// The contact page's calls: record one, delete one. Both work without scripts and go back to the
/// contact's page; a refused call draws the page again with the problem beside the form.
struct CallsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(CallPaths.contactCalls, use: addCall)
        routes.post(CallPaths.delete, use: deleteCall)
    }

    struct CallForm: Content {
        var calledOn: String?
        var time: String?
        var content: String?
        var contactCalled: String?

        enum CodingKeys: String, CodingKey {
            case calledOn = "called_on"
            case time = "called_at_time"
            case content
            case contactCalled = "contact_called"
        }

        /// The day and the time as the API reads them: `2024-05-01 18:30:00`, or the day alone.
        var calledAt: String? {
            guard let day = calledOn?.trimmingCharacters(in: .whitespaces), !day.isEmpty else { return nil }
            guard let clock = time?.trimmingCharacters(in: .whitespaces), !clock.isEmpty else { return day }
            return "\(day) \(clock.count == 5 ? clock + ":00" : clock)"
        }
    }

    func addCall(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(CallForm.self)
        return try await request.handleContactForm(
            .call, contact: contactID,
            typed: [
                "called_on": form.calledOn, "called_at_time": form.time, "content": form.content,
                "contact_called": form.contactCalled,
            ]
        ) {
            _ = try await request.calls().create(
                contactID: contactID,
                CallDraft(calledAt: form.calledAt, content: form.content, contactCalled: form.contactCalled != nil))
            return .redirect(to: ContactPaths.contact(contactID).path + "#calls", flash: "The call was saved.")
        }
    }

    func deleteCall(request: Request) async throws -> Response {
        let call = try await request.calls().call(try request.pathID(.callID))
        try await request.calls().delete(call.id)
        return request.redirect(
            to: ContactPaths.contact(call.contactID).path + "#calls", flash: "The call was deleted.")
    }
}
