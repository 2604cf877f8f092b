//! Bounded count parameters — result limits and offsets — with their
//! ranges and defaults, and the one message a value out of range gets.

use crate::error::{LibraryError, invalid};

/// The range and default of a count parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The parameter's name as callers spell it (`limit`, `offset`).
    pub name: &'static str,
    pub min: usize,
    pub max: usize,
    /// Taken when the parameter is omitted.
    pub default: usize,
    /// What is counted, when not results (`characters`).
    pub unit: Option<&'static str>,
}

impl Bounds {
    /// The given value, or the default; out of range it fails with
    /// `invalid_argument`, saying the range (and the default when it is not
    /// the minimum).
    pub fn check(&self, given: Option<i64>) -> Result<usize, LibraryError> {
        let value = given.unwrap_or(self.default as i64);
        if (self.min as i64..=self.max as i64).contains(&value) {
            return Ok(value as usize);
        }
        let unit = self.unit.map(|u| format!(" {u}")).unwrap_or_default();
        let default =
            if self.default == self.min { String::new() } else { format!(" (default {})", self.default) };
        Err(invalid(format!(
            "{} {value} is out of range: allowed {} to {}{unit}{default}",
            self.name, self.min, self.max
        )))
    }
}

/// A count of results (1 to `max`).
pub const fn limit(default: usize, max: usize) -> Bounds {
    Bounds { name: "limit", min: 1, max, default, unit: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_says_the_range_and_a_default_worth_saying() {
        let limit = limit(20, 50);
        assert_eq!(limit.check(None).unwrap(), 20);
        assert_eq!(limit.check(Some(50)).unwrap(), 50);
        let e = limit.check(Some(0)).unwrap_err().to_string();
        assert_eq!(e, "limit 0 is out of range: allowed 1 to 50 (default 20)");
        let offset = Bounds { name: "offset", min: 0, max: 10_000, default: 0, unit: None };
        let e = offset.check(Some(-5)).unwrap_err().to_string();
        assert_eq!(e, "offset -5 is out of range: allowed 0 to 10000");
        let chars = Bounds { unit: Some("characters"), ..super::limit(16_000, 50_000) };
        let e = chars.check(Some(50_001)).unwrap_err().to_string();
        assert_eq!(e, "limit 50001 is out of range: allowed 1 to 50000 characters (default 16000)");
    }
}
