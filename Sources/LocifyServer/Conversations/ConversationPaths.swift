extension PathParameter {
    static let conversationID = PathParameter("conversationID")
    static let messageID = PathParameter("messageID")
}

/// Conversations and their messages: the API and the contact page's forms.
enum ConversationPaths {
    static let contactConversations = ContactPaths.contact.appending("conversations")
    static let conversation = SitePath("conversations").appending(.conversationID)
    static let delete = conversation.appending("delete")
    static let messages = conversation.appending("messages")
    static let deleteMessage = messages.appending(.messageID).appending("delete")
    static let api = SitePaths.api.appending("conversations")
    static let apiConversation = api.appending(.conversationID)
    static let apiMessages = apiConversation.appending("messages")
    static let apiMessage = apiMessages.appending(.messageID)
    static let apiContactConversations = ContactPaths.apiContact.appending("conversations")
}
