//! Terminal colours: ANSI escapes, on or off.
//!
//! Whether to colour is decided once by the caller ([`color_wanted`]); the
//! renderers take a [`Palette`] and never look at the terminal themselves, so
//! their output is the same in tests and in a pipe.

use std::io::IsTerminal;

/// The colours the terminal report uses (all empty when colour is off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub on: bool,
}

/// A role in the report, mapped to an ANSI style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Headings ("diagnosis 1 of 2").
    Heading,
    /// The gutter: line numbers, `|`, `-->`.
    Gutter,
    /// Carets and their labels under a statement.
    Mark,
    /// Failing tests, the failure count.
    Fail,
    /// "note:" and other secondary labels.
    Note,
    /// Dimmed text (statistics).
    Dim,
}

impl Role {
    fn code(self) -> &'static str {
        match self {
            Role::Heading => "\x1b[1m",
            Role::Gutter => "\x1b[1;34m",
            Role::Mark => "\x1b[1;33m",
            Role::Fail => "\x1b[1;31m",
            Role::Note => "\x1b[1;36m",
            Role::Dim => "\x1b[2m",
        }
    }
}

const RESET: &str = "\x1b[0m";

impl Palette {
    pub const PLAIN: Palette = Palette { on: false };
    pub const COLOR: Palette = Palette { on: true };

    /// `text` in the style of `role` (unchanged when colour is off or `text` is empty).
    pub fn paint(self, role: Role, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("{}{}{}", role.code(), text, RESET)
        } else {
            text.to_string()
        }
    }
}

/// When to colour, as the user asked (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ColorChoice {
    /// When the output is a terminal and `NO_COLOR` is not set (non-empty).
    #[cfg_attr(
        feature = "clap",
        value(help = "Colour when writing to a terminal and NO_COLOR is not set")
    )]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Every choice.
    pub const ALL: [ColorChoice; 3] = [ColorChoice::Auto, ColorChoice::Always, ColorChoice::Never];

    /// The choice's name (`--color`): `auto`, `always`, `never`.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::Auto => "auto",
            ColorChoice::Always => "always",
            ColorChoice::Never => "never",
        }
    }
}

impl std::str::FromStr for ColorChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<ColorChoice, String> {
        ColorChoice::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!("unknown colour choice '{s}' (expected one of: auto, always, never)")
            })
    }
}

/// Whether to colour output going to a stream that is (`is_terminal`) or is
/// not a terminal, given the `NO_COLOR` variable's value (<https://no-color.org>:
/// any non-empty value turns colour off; `--color always` still wins).
pub fn color_wanted(choice: ColorChoice, is_terminal: bool, no_color: Option<&str>) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && no_color.is_none_or(|v| v.is_empty()),
    }
}

/// [`color_wanted`] for standard output and this process's environment.
pub fn stdout_color(choice: ColorChoice) -> bool {
    color_wanted(
        choice,
        std::io::stdout().is_terminal(),
        std::env::var("NO_COLOR").ok().as_deref(),
    )
}

/// Removes ANSI escape sequences (`ESC [ ... letter`), for comparing coloured output.
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_terminals_without_no_color() {
        assert!(color_wanted(ColorChoice::Auto, true, None));
        assert!(color_wanted(ColorChoice::Auto, true, Some("")));
        assert!(!color_wanted(ColorChoice::Auto, true, Some("1")));
        assert!(!color_wanted(ColorChoice::Auto, false, None));
        assert!(color_wanted(ColorChoice::Always, false, Some("1")));
        assert!(!color_wanted(ColorChoice::Never, true, None));
    }

    #[test]
    fn paint_and_strip() {
        let p = Palette::COLOR.paint(Role::Mark, "^^^");
        assert_eq!(p, "\x1b[1;33m^^^\x1b[0m");
        assert_eq!(strip_ansi(&p), "^^^");
        assert_eq!(Palette::PLAIN.paint(Role::Mark, "^^^"), "^^^");
        assert_eq!(Palette::COLOR.paint(Role::Mark, ""), "");
    }
}
