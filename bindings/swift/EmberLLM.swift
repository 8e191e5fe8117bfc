// EmberLLM.swift: a thin Swift layer over the LLM C API (module `EmberLLM`,
// EmberLLM/module.modulemap): a class over an ember_llm handle, `throws` EmberLLMError with the
// error name and message, text streamed to a closure. Add this file, ember.h, ember_llm.h,
// EmberLLM/module.modulemap and libember_llm (built for iOS) to an Xcode target; see docs/ios.md.
//
// NOT COMPILED HERE: Debian 12 has no Swift compiler. The module map under it is tested with
// clang (//bindings/swift:llm_module_test); this file is written against the C API as Swift
// imports it (C enums as RawRepresentable structs, opaque handles as OpaquePointer).
// Self-contained: module EmberLLM carries ember.h too, so an LLM app adds this file and not
// Ember.swift (the two module maps own the same header).
//
//   let llm = try EmberLLM(model: modelPath, tokenizer: tokenizerPath)
//   var config = EmberLLM.defaultConfig()
//   config.max_new_tokens = 64
//   let tokens = try llm.generate("Once upon a time", config: config) { piece in print(piece, terminator: ""); return true }
//   try llm.saveSession(to: path)     // later, in another process: try llm.loadSession(from: path)
//
// Thread-safety: one EmberLLM is one conversation, used by one thread at a time; stop() may be
// called from any thread. newSession() / fork() give conversations on the same loaded weights,
// which may generate on different threads at once.
import EmberLLM

/// A failed call: the runtime's error code, its name ("InvalidArgument") and message.
public struct EmberLLMError: Error, CustomStringConvertible {
  public let status: UInt32
  public let name: String
  public let message: String
  public var description: String { "\(name) (0x\(String(status, radix: 16))): \(message)" }
}

public final class EmberLLM {
  let handle: OpaquePointer
  // Read by the C library before each piece of text; set by stop().
  private let cancel = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

  public init(model: String, tokenizer: String? = nil) throws {
    var out: OpaquePointer? = nil
    let status: ember_status = model.withCString { m in
      guard let tokenizer = tokenizer else { return ember_llm_load(m, nil, &out) }
      return tokenizer.withCString { t in ember_llm_load(m, t, &out) }
    }
    try EmberLLM.check(status)
    handle = out!
    cancel.initialize(to: 0)
  }

  private init(handle: OpaquePointer) {
    self.handle = handle
    cancel.initialize(to: 0)
  }

  deinit {
    ember_llm_destroy(handle)
    cancel.deallocate()
  }

  static func check(_ status: ember_status) throws {
    if status != EMBER_OK {
      throw EmberLLMError(status: status.rawValue, name: String(cString: ember_status_name(status)),
                       message: String(cString: ember_last_error_message()))
    }
  }

  public static func defaultConfig() -> ember_llm_config {
    var config = ember_llm_config()
    ember_llm_config_init(&config)
    return config
  }

  /// What a model needs in memory, without loading it.
  public static func estimateMemory(model: String) throws -> ember_llm_memory {
    var memory = ember_llm_memory()
    try check(model.withCString { ember_llm_estimate_memory($0, &memory) })
    return memory
  }

  /// The closure the C callback calls through its user_data.
  private final class Stream {
    let onText: (String) -> Bool
    init(_ onText: @escaping (String) -> Bool) { self.onText = onText }
  }

  private static let callback: ember_llm_text_callback = { text, size, userData in
    let stream = Unmanaged<Stream>.fromOpaque(userData!).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: text, count: size)
    return stream.onText(String(decoding: bytes, as: UTF8.self)) ? 1 : 0
  }

  private func generated() -> [Int32] {
    var tokens = [Int32](repeating: 0, count: ember_llm_generated_tokens(handle, nil, 0))
    _ = tokens.withUnsafeMutableBufferPointer { ember_llm_generated_tokens(handle, $0.baseAddress, $0.count) }
    return tokens
  }

  /// Generates from `prompt` (the whole conversation; the part already in the cache is not
  /// run again); returns the new token ids.
  @discardableResult
  public func generate(_ prompt: String, config: ember_llm_config,
                       onText: @escaping (String) -> Bool = { _ in true }) throws -> [Int32] {
    var config = config
    cancel.pointee = 0
    let stream = Stream(onText)
    let user = Unmanaged.passUnretained(stream).toOpaque()
    try withExtendedLifetime(stream) {
      try EmberLLM.check(prompt.withCString {
        ember_llm_generate(handle, $0, nil, 0, &config, EmberLLM.callback, user, cancel)
      })
    }
    return generated()
  }

  /// Generates from token ids.
  @discardableResult
  public func generate(ids: [Int32], config: ember_llm_config,
                       onText: @escaping (String) -> Bool = { _ in true }) throws -> [Int32] {
    var config = config
    cancel.pointee = 0
    let stream = Stream(onText)
    let user = Unmanaged.passUnretained(stream).toOpaque()
    try withExtendedLifetime(stream) {
      try EmberLLM.check(ids.withUnsafeBufferPointer {
        ember_llm_generate(handle, nil, $0.baseAddress, $0.count, &config, EmberLLM.callback, user, cancel)
      })
    }
    return generated()
  }

  /// Appends `text` (nil: nothing) and generates on, continuing the random stream.
  @discardableResult
  public func continueGeneration(_ text: String?, config: ember_llm_config,
                                 onText: @escaping (String) -> Bool = { _ in true }) throws -> [Int32] {
    var config = config
    cancel.pointee = 0
    let stream = Stream(onText)
    let user = Unmanaged.passUnretained(stream).toOpaque()
    try withExtendedLifetime(stream) {
      let status: ember_status
      if let text = text {
        status = text.withCString {
          ember_llm_continue(handle, $0, nil, 0, &config, EmberLLM.callback, user, cancel)
        }
      } else {
        status = ember_llm_continue(handle, nil, nil, 0, &config, EmberLLM.callback, user, cancel)
      }
      try EmberLLM.check(status)
    }
    return generated()
  }

  /// Stops a running generation before its next piece of text; any thread.
  public func stop() { cancel.pointee = 1 }

  public func reset() throws { try EmberLLM.check(ember_llm_reset(handle)) }

  public func rewind(to position: Int32) throws { try EmberLLM.check(ember_llm_rewind(handle, position)) }

  public var sessionTokens: [Int32] {
    var tokens = [Int32](repeating: 0, count: ember_llm_session_tokens(handle, nil, 0))
    _ = tokens.withUnsafeMutableBufferPointer { ember_llm_session_tokens(handle, $0.baseAddress, $0.count) }
    return tokens
  }

  /// A new, empty conversation on the same loaded weights.
  public func newSession() throws -> EmberLLM {
    var out: OpaquePointer? = nil
    try EmberLLM.check(ember_llm_new_session(handle, &out))
    return EmberLLM(handle: out!)
  }

  /// A new conversation starting as a copy of this one.
  public func fork() throws -> EmberLLM {
    var out: OpaquePointer? = nil
    try EmberLLM.check(ember_llm_fork(handle, &out))
    return EmberLLM(handle: out!)
  }

  public func saveSession(to path: String) throws {
    try EmberLLM.check(path.withCString { ember_llm_save_session(handle, $0) })
  }

  public func loadSession(from path: String) throws {
    try EmberLLM.check(path.withCString { ember_llm_load_session(handle, $0) })
  }

  public func stats() throws -> ember_llm_stats {
    var stats = ember_llm_stats()
    try EmberLLM.check(ember_llm_get_stats(handle, &stats))
    return stats
  }
}
