import Foundation

/// A JSON value whose objects keep their keys in the order given, so that the file reads in
/// the same order as the table. Foundation's encoders make no such promise.
indirect enum JSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// The value as indented text, ending with a newline.
    var text: String {
        var output = ""
        write(to: &output, indent: "")
        return output + "\n"
    }

    private func write(to output: inout String, indent: String) {
        switch self {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .number(let value):
            output += Self.number(value)
        case .string(let value):
            output += Self.quoted(value)
        case .array(let values):
            Self.writeList(values.map { (nil, $0) }, brackets: ("[", "]"), to: &output, indent: indent)
        case .object(let members):
            Self.writeList(members.map { ($0, $1) }, brackets: ("{", "}"), to: &output, indent: indent)
        }
    }

    /// Writes the elements of an array (no keys) or an object (keys), one per indented line.
    private static func writeList(
        _ elements: [(key: String?, value: JSON)],
        brackets: (open: String, close: String),
        to output: inout String,
        indent: String
    ) {
        guard !elements.isEmpty else {
            output += brackets.open + brackets.close
            return
        }
        let inner = indent + "  "
        output += brackets.open + "\n"
        for (index, element) in elements.enumerated() {
            output += inner
            if let key = element.key {
                output += quoted(key) + ": "
            }
            element.value.write(to: &output, indent: inner)
            output += index == elements.count - 1 ? "\n" : ",\n"
        }
        output += indent + brackets.close
    }

    /// Whole numbers without a fraction, others to six significant digits: more would be noise.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value))
        }
        return String(format: "%.6g", value)
    }

    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
