// Ember.swift: a thin Swift layer over the C API (module `Ember`, module.modulemap): classes
// over the handles, `throws` with the error name and message. Add this file, ember.h,
// module.modulemap and libember (built for iOS) to an Xcode target; see docs/ios.md.
//
// NOT COMPILED HERE: Debian 12 has no Swift compiler. The module map under it is tested with
// clang (//bindings/swift:module_test); this file is written against the C API as Swift
// imports it (C enums as RawRepresentable structs, opaque handles as OpaquePointer).
//
//   let program = try EmberProgram(path: modelPath)
//   let method = try program.method("forward")
//   try method.setInput(0, floats: pixels)
//   try method.execute()
//   if case .tensor(let out) = try method.output(0) { print(out.shape, out.floats()) }
//
// Thread-safety: an EmberProgram may be shared; an EmberMethod is used by one thread at a time.
import Ember

/// A failed call: the runtime's error code, its name ("InvalidArgument") and message.
public struct EmberError: Error, CustomStringConvertible {
  public let status: UInt32
  public let name: String
  public let message: String
  public var description: String { "\(name) (0x\(String(status, radix: 16))): \(message)" }
}

private func check(_ status: ember_status, _ message: @autoclosure () -> String) throws {
  if status != EMBER_OK {
    throw EmberError(status: status.rawValue, name: String(cString: ember_status_name(status)), message: message())
  }
}

/// A loaded, verified .pte (memory-mapped).
public final class EmberProgram {
  let handle: OpaquePointer

  public init(path: String, dataPath: String? = nil) throws {
    var options = ember_program_options()
    ember_program_options_init(&options)
    var out: OpaquePointer? = nil
    let status: ember_status = path.withCString { p in
      guard let dataPath = dataPath else { return ember_program_load_file(p, &options, &out) }
      return dataPath.withCString { d in
        options.data_path = d
        return ember_program_load_file(p, &options, &out)
      }
    }
    try check(status, String(cString: ember_last_error_message()))
    handle = out!
  }

  deinit { ember_program_destroy(handle) }

  /// The methods users can run, in file order.
  public var methodNames: [String] {
    (0..<ember_program_method_count(handle)).compactMap { i in
      var name: UnsafePointer<CChar>? = nil
      return ember_program_method_name(handle, i, &name) == EMBER_OK ? String(cString: name!) : nil
    }
  }

  /// Creates method `name` with runtime-owned memory. `backends`: nil for all linked, "" for none.
  /// `maxPlannedMemoryBytes`: the most planned memory the method may reserve (0: 8 GiB); a
  /// larger plan throws MemoryAllocationFailed before anything is reserved.
  public func method(_ name: String, threads: UInt32 = 1, backends: String? = nil,
                     profiling: Bool = false, maxPlannedMemoryBytes: UInt64 = 0) throws -> EmberMethod {
    var options = ember_method_options()
    ember_method_options_init(&options)
    options.num_threads = threads
    options.profiling = profiling ? 1 : 0
    options.max_planned_memory_bytes = maxPlannedMemoryBytes
    var out: OpaquePointer? = nil
    let status: ember_status = name.withCString { n in
      guard let backends = backends else { return ember_method_create(handle, n, &options, &out) }
      return backends.withCString { b in
        options.backends = b
        return ember_method_create(handle, n, &options, &out)
      }
    }
    try check(status, String(cString: ember_program_last_error(handle)))
    return EmberMethod(handle: out!, program: self)
  }
}

/// An output tensor, copied out of the method's memory.
public struct EmberTensor {
  public let dtype: ember_dtype
  public let shape: [Int64]
  public let bytes: [UInt8]

  public func floats() -> [Float] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
  }
}

/// An input or output value.
public enum EmberValue {
  case none
  case tensor(EmberTensor)
  case int(Int64)
  case double(Double)
  case bool(Bool)
  case other(ember_kind)
}

/// One method, ready to run.
public final class EmberMethod {
  let handle: OpaquePointer
  let program: EmberProgram  // kept alive while the method exists

  init(handle: OpaquePointer, program: EmberProgram) {
    self.handle = handle
    self.program = program
  }

  deinit { ember_method_destroy(handle) }

  private var lastError: String { String(cString: ember_method_last_error(handle)) }

  public var inputCount: Int { Int(ember_method_input_count(handle)) }
  public var outputCount: Int { Int(ember_method_output_count(handle)) }

  /// Copies `bytes` into tensor input `index` (dtype and byte size are checked).
  public func setInput(_ index: Int, dtype: ember_dtype, bytes: UnsafeRawBufferPointer) throws {
    try check(ember_method_set_input(handle, index, dtype, bytes.baseAddress, bytes.count), lastError)
  }

  public func setInput(_ index: Int, floats: [Float]) throws {
    try floats.withUnsafeBytes { try setInput(index, dtype: EMBER_DTYPE_FLOAT, bytes: $0) }
  }

  /// Sets the shape of a dynamic input before setInput.
  public func resizeInput(_ index: Int, shape: [Int64]) throws {
    try check(ember_method_resize_input(handle, index, shape, shape.count), lastError)
  }

  public func execute() throws {
    try check(ember_method_execute(handle), lastError)
  }

  public func output(_ index: Int) throws -> EmberValue {
    var v = ember_value()
    ember_value_init(&v)
    try check(ember_method_output(handle, index, &v), lastError)
    switch v.kind {
    case EMBER_KIND_TENSOR:
      let shape = withUnsafeBytes(of: v.sizes) { Array($0.bindMemory(to: Int64.self).prefix(Int(v.rank))) }
      let bytes = v.nbytes == 0 ? [] : Array(UnsafeRawBufferPointer(start: v.data, count: Int(v.nbytes)))
      return .tensor(EmberTensor(dtype: v.dtype, shape: shape, bytes: bytes))
    case EMBER_KIND_INT: return .int(v.i)
    case EMBER_KIND_DOUBLE: return .double(v.d)
    case EMBER_KIND_BOOL: return .bool(v.b != 0)
    case EMBER_KIND_NONE: return .none
    default: return .other(v.kind)
    }
  }

  /// Per-instruction timings of the last execute (profiling on at creation).
  public func profile() throws -> [(name: String, calls: UInt64, nanoseconds: UInt64)] {
    try (0..<ember_method_profile_count(handle)).map { i in
      var e = ember_profile_entry()
      ember_profile_entry_init(&e)
      try check(ember_method_profile_entry(handle, i, &e), lastError)
      return (String(cString: e.name), e.calls, e.total_ns)
    }
  }
}
