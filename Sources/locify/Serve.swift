import ArgumentParser
import Foundation
import LocifyServer

extension Locify {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Start the server (the default command). Runs pending migrations first.")

        @Option(help: "Address to listen on (env: LOCIFY_HOST; default 127.0.0.1).")
        var host: String?

        @Option(help: "Port to listen on; 0 picks a free one (env: LOCIFY_PORT; default 8080).")
        var port: Int?

        @OptionGroup var storage: StorageOptions

        func validate() throws {
            if let port, !(0...65535).contains(port) {
                throw ValidationError("--port must be from 0 to 65535.")
            }
        }

        func run() async throws {
            Output.bootstrapLogging(defaultLevel: .info)
            let config = try storage.config(host: host, port: port)
            try await LocifyApp.serve(config: config) { line in
                // Written straight to the descriptor: scripts wait for this line, so it must not sit in a buffer.
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
    }
}
