import XCTVapor

func unwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

extension HTTPHeaders {
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for (name, value) in other { result.replaceOrAdd(name: name, value: value) }
        return result
    }
}

/// `XCTAssertThrowsError` for async expressions: fails when nothing is thrown, else hands the error over.
func assertThrowsAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("expected an error", file: file, line: line)
    } catch {
        check(error)
    }
}
