import Foundation
import MapData
import MapGeocoding
import MapGeometry

/// `mapraster geocode --input FILE`: CSV streamed row by row, GeoJSON feature by feature. With `--json`, a CSV
/// file is answered as GeoJSON too (a Point feature per row, the row's columns as properties), so that `--json`
/// means JSON whatever the input.
enum GeocodeFile {
    /// Where rows go: standard output as they come, or a temporary file renamed over `path` at the end.
    final class Sink {
        let output: MapRasterCLI.Output
        let path: String?
        let temporary: URL?
        var handle: FileHandle?
        var buffer = ""

        /// The file the output finally names (links followed), where the temporary file is renamed.
        let target: URL?

        /// Opens the output for an `input` already checked to be a regular file.
        ///
        /// The output is refused when it is a folder, a device, FIFO or socket, or the input itself (by any
        /// path or link), before anything is read: it is replaced only by rename(2) at the end.
        init(path: String?, input: String, output: MapRasterCLI.Output) throws {
            self.output = output
            self.path = path
            guard let path, path != "-" else {
                temporary = nil
                target = nil
                return
            }
            let target = try OutputPath.resolve(URL(fileURLWithPath: path))
            try OutputPath.checkNotSpecial(
                target, named: path, because: "the rows are renamed into place when all are done")
            if OutputPath.isDirectory(target.path) {
                throw CLIError.failure("cannot write '\(path)': it is a folder; give a file name")
            }
            if let identity = OutputPath.identity(target.path), identity == OutputPath.identity(input) {
                throw CLIError.failure("'\(path)' is both the output and the input; write to a new file")
            }
            self.target = target
            let temporary = target.deletingLastPathComponent().appendingPathComponent(
                ".\(target.lastPathComponent).\(getpid()).partial")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                let handle = try? FileHandle(forWritingTo: temporary)
            else { throw CLIError.failure("cannot write '\(path)': check that its folder exists and is writable") }
            self.temporary = temporary
            self.handle = handle
        }

        func write(_ text: String) throws {
            buffer += text
            if buffer.utf8.count > 1 << 16 { try flush() }
        }

        func flush() throws {
            guard !buffer.isEmpty else { return }
            if let handle {
                do { try handle.write(contentsOf: Data(buffer.utf8)) } catch {
                    throw CLIError.failure("cannot write '\(path ?? "")': \(error.localizedDescription)")
                }
            } else {
                output.standardOutput(buffer)
            }
            buffer = ""
        }

        /// Flushes and moves the temporary file into place.
        func finish() throws {
            try flush()
            guard let temporary, let path, let target else { return }
            try? handle?.close()
            handle = nil
            // rename(2) replaces a file atomically and never a folder (nor, through the check above, a link).
            guard rename(temporary.path, target.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw CLIError.failure("cannot write '\(path)': \(reason)")
            }
        }

        /// Removes the temporary file after a failure: nothing half-written.
        func abandon() {
            try? handle?.close()
            handle = nil
            if let temporary { try? FileManager.default.removeItem(at: temporary) }
        }
    }

    // MARK: CSV

    /// `load` gives the geocoder; it is called after the input and output were checked, so that a bad file
    /// is refused without waiting for the geocoding data. `json`: answer a GeoJSON FeatureCollection, streamed
    /// feature by feature, with the same properties as ``geoJSON(_:to:load:output:)`` adds, instead of CSV.
    static func csv(
        _ input: String, to target: String?, json: Bool = false, load: () throws -> Geocoder,
        output: MapRasterCLI.Output
    ) throws -> Int32 {
        // Streamed, so any size; but only a regular file (a FIFO would block, /dev/zero never ends).
        do { _ = try FileReader.checkedRegularFile(URL(fileURLWithPath: input), limit: Int.max) } catch {
            throw CLIError.failure(error.description)
        }
        guard let handle = FileHandle(forReadingAtPath: input) else {
            throw CLIError.failure("cannot read '\(input)': no such file or not readable")
        }
        defer { try? handle.close() }
        let sink = try Sink(path: target, input: input, output: output)
        let geocoder: Geocoder
        do { geocoder = try load() } catch {
            sink.abandon()
            throw error
        }
        var bad = 0
        // A progress bar (a line every 2 s when not a terminal) for inputs of 8 MiB and more.
        let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        let progress = ProgressReporter(quiet: size < 8 << 20, output: output)
        defer { progress.finish() }
        var bytesRead = 0
        do {
            var lineNumber = 0
            var columns: (lat: Int, lon: Int, names: [String])?
            var features = 0
            var pending = Data()
            var finished = false
            while !finished {
                let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
                if let chunk, !chunk.isEmpty { pending.append(chunk) } else { finished = true }
                bytesRead += chunk?.count ?? 0
                progress.report(done: bytesRead >> 20, total: size >> 20, unit: "MiB", detail: "\(lineNumber) rows")
                var start = pending.startIndex
                defer { pending = start < pending.endIndex ? Data(pending[start...]) : Data() }
                while start < pending.endIndex {
                    guard let newline = pending[start...].firstIndex(of: 0x0A) ?? (finished ? pending.endIndex : nil)
                    else { break }
                    var lineData = pending[start..<newline]
                    start = newline < pending.endIndex ? newline + 1 : newline
                    if lineData.last == 0x0D { lineData = lineData.dropLast() }
                    lineNumber += 1
                    guard let line = String(data: lineData, encoding: .utf8) else {
                        bad += 1
                        output.standardError("mapraster: \(input):\(lineNumber): not UTF-8 text; row skipped\n")
                        continue
                    }
                    guard let header = columns else {
                        // GeoJSON keeps the header's names as written (only the spaces round them trimmed).
                        let written = try fieldsOf(line, input: input, line: lineNumber).map {
                            $0.trimmingCharacters(in: .whitespaces)
                        }
                        let names = written.map { $0.lowercased() }
                        guard let lat = names.firstIndex(where: { ["lat", "latitude"].contains($0) }),
                            let lon = names.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) })
                        else {
                            throw CLIError.failure(
                                "\(input):\(lineNumber): the header needs a 'lat' (or 'latitude') and a 'lon' (or "
                                    + "'lng', 'longitude') column; found \(names.joined(separator: ","))")
                        }
                        columns = (lat, lon, written)
                        try sink.write(
                            json
                                ? #"{"type":"FeatureCollection","features":["# + "\n"
                                : line + "," + GeocodeCommand.fieldNames.joined(separator: ",") + ",error\n")
                        continue
                    }
                    if line.isEmpty { continue }
                    var row: [String] = []
                    var point: LocationCoordinate2D?
                    var placemark: Placemark?
                    var problem: String?
                    do {
                        row = try fieldsOf(line, input: input, line: lineNumber)
                        guard row.count == header.names.count else {
                            throw CLIError.failure(
                                "\(input):\(lineNumber): \(row.count) fields, the header has \(header.names.count)")
                        }
                        let latText = row[header.lat].trimmingCharacters(in: .whitespaces)
                        let lonText = row[header.lon].trimmingCharacters(in: .whitespaces)
                        guard let lat = Double(latText), let lon = Double(lonText) else {
                            throw CLIError.failure(
                                "\(input):\(lineNumber): lat '\(latText)' and lon '\(lonText)' must be numbers")
                        }
                        let coordinate = LocationCoordinate2D(latitude: lat, longitude: lon)
                        do {
                            placemark = try geocoder.reverseGeocode(coordinate)
                        } catch GeocodingError.noData {
                            problem = "at sea"
                        } catch let error as GeocodingError {
                            throw CLIError.failure("\(input):\(lineNumber): \(error.description)")
                        }
                        point = coordinate
                    } catch let error as CLIError {
                        bad += 1
                        output.standardError("mapraster: \(error.description)\n")
                        problem = error.description
                    }
                    if json {
                        let feature = featureJSON(
                            columns: zip(header.names, row).map { ($0, $1) }, point: point, placemark: placemark,
                            problem: problem)
                        try sink.write((features == 0 ? "" : ",\n") + feature.serialized(pretty: false))
                        features += 1
                    } else {
                        var added = Array(repeating: "", count: GeocodeCommand.fieldNames.count)
                        if let placemark { added = GeocodeCommand.fields(placemark).map { $0 ?? "" } }
                        try sink.write(line + "," + (added + [problem ?? ""]).map(quoted).joined(separator: ",") + "\n")
                    }
                }
            }
            guard columns != nil else {
                throw CLIError.failure("\(input): empty file: a header with lat,lon is needed")
            }
            if json { try sink.write((features == 0 ? "" : "\n") + "]}\n") }
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
        if bad > 0 { output.standardError("mapraster: \(bad) bad row(s) in '\(input)'; the others were geocoded\n") }
        return bad > 0 ? 1 : 0
    }

    /// A CSV row as a GeoJSON feature: a Point where the row has a usable coordinate (else a null geometry),
    /// the row's columns as string properties, then the placemark's fields and the error, as
    /// ``geoJSON(_:to:load:output:)`` adds them.
    static func featureJSON(
        columns: [(String, String)], point: LocationCoordinate2D?, placemark: Placemark?, problem: String?
    ) -> JSONValue {
        var properties: [(String, JSONValue)] = columns.map { ($0.0, .string($0.1)) }
        if let placemark { properties += self.properties(of: placemark) }
        if let problem { properties.append(("error", .string(problem))) }
        let geometry: JSONValue =
            point.map {
                .object([
                    ("type", .string("Point")), ("coordinates", .array([.number($0.longitude), .number($0.latitude)])),
                ])
            } ?? .null
        return .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
    }

    /// The placemark's fields that it has, as GeoJSON properties (``GeocodeCommand/fieldNames`` in order).
    static func properties(of placemark: Placemark) -> [(String, JSONValue)] {
        zip(GeocodeCommand.fieldNames, GeocodeCommand.fields(placemark)).compactMap { name, value in
            value.map { (name, .string($0)) }
        }
    }

    /// Splits a CSV line (RFC 4180 quotes; a field may not hold a line break).
    static func fieldsOf(_ line: String, input: String, line number: Int) throws -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(line)
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            if quoted {
                if ch == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" {
                        field.append("\"")
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(ch)
                }
            } else if ch == "\"" {
                quoted = true
            } else if ch == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(ch)
            }
            i += 1
        }
        chars.removeAll()
        guard !quoted else { throw CLIError.failure("\(input):\(number): a quoted field is not closed") }
        fields.append(field)
        return fields
    }

    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: GeoJSON

    /// `load` gives the geocoder, called once the input was read and parsed.
    static func geoJSON(_ input: String, to target: String?, load: () throws -> Geocoder, output: MapRasterCLI.Output)
        throws
        -> Int32
    {
        let data: Data
        do { data = try FileReader.read(URL(fileURLWithPath: input)) } catch {
            throw CLIError.failure(error.description)
        }
        let document: JSONValue
        do { document = try JSONValue.parse(data) } catch let error as JSONError {
            throw CLIError.failure("\(input): \(error.description)")
        }
        guard document["type"]?.string == "FeatureCollection", let features = document["features"]?.array else {
            throw CLIError.failure("\(input): expected a GeoJSON FeatureCollection with a 'features' array")
        }
        let sink = try Sink(path: target, input: input, output: output)
        let geocoder: Geocoder
        do { geocoder = try load() } catch {
            sink.abandon()
            throw error
        }
        var bad = 0
        var out: [JSONValue] = []
        out.reserveCapacity(features.count)
        for (index, feature) in features.enumerated() {
            var properties = feature["properties"]?.members ?? []
            var problem: String?
            if let geometry = feature["geometry"], geometry["type"]?.string == "Point",
                let position = geometry["coordinates"]?.array, position.count >= 2,
                let lon = position[0].number, let lat = position[1].number
            {
                do {
                    let placemark = try geocoder.reverseGeocode(LocationCoordinate2D(latitude: lat, longitude: lon))
                    properties += Self.properties(of: placemark)
                } catch GeocodingError.noData {
                    properties.append(("error", .string("at sea")))
                } catch let error as GeocodingError {
                    problem = error.description
                }
            } else {
                problem = "not a Point feature with [longitude, latitude] coordinates"
            }
            if let problem {
                bad += 1
                output.standardError("mapraster: \(input): feature \(index): \(problem)\n")
                properties.append(("error", .string(problem)))
            }
            var members = (feature.members ?? []).filter { $0.0 != "properties" }
            members.append(("properties", .object(properties)))
            out.append(.object(members))
        }
        var top = (document.members ?? []).filter { $0.0 != "features" }
        top.append(("features", .array(out)))
        do {
            try sink.write(JSONValue.object(top).serialized(pretty: false) + "\n")
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
        if bad > 0 {
            output.standardError("mapraster: \(bad) bad feature(s) in '\(input)'; the others were geocoded\n")
        }
        return bad > 0 ? 1 : 0
    }
}
