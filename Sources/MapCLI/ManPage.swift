/// The manual page, generated from ``CommandTable``.
enum ManPage {
    /// `mapraster.1` in troff (man macros). It has no date, so that equal versions give equal bytes.
    static func troff() -> String {
        var page = """
            .TH MAPRASTER 1 "" "mapraster \(MapRasterCLI.version)" "User Commands"
            .SH NAME
            mapraster \\- render maps to PNG, JPEG or WebP with MapKit's model
            .SH SYNOPSIS
            .B mapraster
            [\\fIcommand\\fR] [\\fIoptions\\fR]
            .SH DESCRIPTION
            mapraster renders static maps and tile pyramids offline: regions, annotations and overlays as in
            MapKit, base maps from shipped data or MapLibre styles, in PNG, palette PNG, JPEG or WebP.
            Without a command it renders (\\fBrender\\fR is the default command).
            .SH COMMANDS

            """
        for command in CommandTable.all {
            page += ".SS \"mapraster \(escape(command.name))\"\n\(escape(command.summary))\n.PP\n.nf\n"
            for line in command.usage { page += "\\fBmapraster\\fR \(escape(line))\n" }
            page += ".fi\n"
            for (name, help) in command.arguments {
                page += ".TP\n\\fI\(escape(name))\\fR\n\(escape(help.replacingOccurrences(of: "\n", with: " ")))\n"
            }
            for option in command.parsedOptions {
                let names = (option.short.map { "\\fB\(escape($0))\\fR, " } ?? "") + "\\fB\(escape(option.name))\\fR"
                let value = option.value.name.map { " \\fI\(escape($0))\\fR" } ?? ""
                let help =
                    option.help.replacingOccurrences(of: "\n", with: " ") + (option.repeatable ? " (repeatable)" : "")
                page += ".TP\n\(names)\(value)\n\(escape(help))\n"
            }
            if !command.footer.isEmpty {
                page += ".PP\n\(escape(command.footer.replacingOccurrences(of: "\n", with: " ")))\n"
            }
        }
        page += """
            .SH EXIT STATUS
            0 success, 1 failure, 64 usage error; \\fBdiff\\fR: 0 within the allowed difference, 1 not within,
            2 error.
            .SH SEE ALSO
            The README of MapRaster; \\fBmapraster completions bash\\fR and \\fBmapraster completions zsh\\fR
            print shell completion scripts.

            """
        return page
    }

    /// Text safe in a troff line: backslashes escaped, dashes as minus signs, no line starting with a
    /// control character.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
