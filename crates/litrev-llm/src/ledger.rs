//! What calls cost: a price per model (`Price`, `PriceTable`), and the `Ledger` of tokens and
//! dollars per phase that a run records and a budget is checked against.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::LlmResponse;

/// What a model charges, in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Per million input (prompt) tokens.
    pub input_per_million: f64,
    /// Per million output (answer) tokens.
    pub output_per_million: f64,
    /// Share of the price paid for batched calls (Anthropic's Message Batches: 0.5).
    #[serde(default = "full_price")]
    pub batch_factor: f64,
}

fn full_price() -> f64 {
    1.0
}

impl Price {
    /// A price with the usual 50 % batch discount.
    pub const fn new(input_per_million: f64, output_per_million: f64) -> Price {
        Price {
            input_per_million,
            output_per_million,
            batch_factor: 0.5,
        }
    }

    /// Dollars for these token counts.
    pub fn cost(&self, input_tokens: u64, output_tokens: u64, batched: bool) -> f64 {
        let full = (input_tokens as f64 * self.input_per_million
            + output_tokens as f64 * self.output_per_million)
            / 1_000_000.0;
        if batched {
            full * self.batch_factor
        } else {
            full
        }
    }
}

impl std::str::FromStr for Price {
    type Err = String;

    /// `INPUT,OUTPUT` in dollars per million tokens, as `--llm-price 0.15,0.60` gives it.
    fn from_str(text: &str) -> Result<Price, String> {
        let parse = |part: &str| {
            part.trim()
                .trim_start_matches('$')
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite() && *value >= 0.0)
        };
        match text.split_once(',') {
            Some((input, output)) => match (parse(input), parse(output)) {
                (Some(input), Some(output)) => Ok(Price::new(input, output)),
                _ => Err(format!(
                    "`{text}` is not two prices: write INPUT,OUTPUT in US dollars per million tokens, e.g. 0.15,0.60"
                )),
            },
            None => Err(format!(
                "`{text}` needs two prices: write INPUT,OUTPUT in US dollars per million tokens, e.g. 0.15,0.60"
            )),
        }
    }
}

/// List prices of common hosted models (US dollars per million tokens, as published in 2025),
/// matched by the longest prefix of the model name so dated snapshots
/// (`gpt-4o-mini-2024-07-18`, `claude-sonnet-4-5-20250929`) find their family.
const LIST_PRICES: &[(&str, Price)] = &[
    ("gpt-4o-mini", Price::new(0.15, 0.60)),
    ("gpt-4o", Price::new(2.50, 10.00)),
    ("gpt-4.1-nano", Price::new(0.10, 0.40)),
    ("gpt-4.1-mini", Price::new(0.40, 1.60)),
    ("gpt-4.1", Price::new(2.00, 8.00)),
    ("gpt-5-nano", Price::new(0.05, 0.40)),
    ("gpt-5-mini", Price::new(0.25, 2.00)),
    ("gpt-5", Price::new(1.25, 10.00)),
    ("o4-mini", Price::new(1.10, 4.40)),
    ("o3", Price::new(2.00, 8.00)),
    ("claude-3-5-haiku", Price::new(0.80, 4.00)),
    ("claude-haiku-4-5", Price::new(1.00, 5.00)),
    ("claude-sonnet-4", Price::new(3.00, 15.00)),
    ("claude-3-7-sonnet", Price::new(3.00, 15.00)),
    ("claude-opus-4", Price::new(15.00, 75.00)),
];

/// Prices by model: the list prices, overridden or extended by the user's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PriceTable {
    overrides: BTreeMap<String, Price>,
}

impl PriceTable {
    /// The list prices only.
    pub fn list_prices() -> PriceTable {
        PriceTable::default()
    }

    /// Sets the price of `model` (exact name or a prefix of dated names).
    #[must_use]
    pub fn with(mut self, model: &str, price: Price) -> PriceTable {
        self.overrides.insert(model.to_owned(), price);
        self
    }

    /// The price of `model`: the user's first, then the list, longest prefix first; `None`
    /// for a model nobody priced (a local one, usually free).
    pub fn price(&self, model: &str) -> Option<Price> {
        let longest = |entries: &mut dyn Iterator<Item = (&str, Price)>| {
            entries
                .filter(|(prefix, _)| model.starts_with(prefix))
                .max_by_key(|(prefix, _)| prefix.len())
                .map(|(_, price)| price)
        };
        longest(
            &mut self
                .overrides
                .iter()
                .map(|(prefix, price)| (prefix.as_str(), *price)),
        )
        .or_else(|| longest(&mut LIST_PRICES.iter().copied()))
    }
}

/// Tokens and dollars of one phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseUsage {
    /// The phase (`write.draft`).
    pub phase: String,
    /// Calls sent to the provider.
    pub calls: u64,
    /// Calls answered by the response cache (free).
    pub cache_hits: u64,
    /// Input tokens of the calls sent.
    pub input_tokens: u64,
    /// Output tokens of the calls sent.
    pub output_tokens: u64,
    /// Dollars, at the price table's prices (0 for unpriced models).
    pub cost_usd: f64,
    /// Calls whose token counts are estimates (the provider gave no usage).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub estimated_calls: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Tokens and cost per phase, in phase order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// One line per phase, ordered by name.
    pub phases: Vec<PhaseUsage>,
}

impl Ledger {
    /// Counts one answer under `phase` at `price` (a cache hit counts as a hit, free).
    pub fn record(&mut self, phase: &str, response: &LlmResponse, price: Option<Price>) {
        let position = match self
            .phases
            .binary_search_by(|line| line.phase.as_str().cmp(phase))
        {
            Ok(position) => position,
            Err(position) => {
                self.phases.insert(
                    position,
                    PhaseUsage {
                        phase: phase.to_owned(),
                        ..PhaseUsage::default()
                    },
                );
                position
            }
        };
        let line = &mut self.phases[position];
        if response.cached {
            line.cache_hits += 1;
            return;
        }
        line.calls += 1;
        line.input_tokens += response.input_tokens;
        line.output_tokens += response.output_tokens;
        if response.estimated_usage {
            line.estimated_calls += 1;
        }
        line.cost_usd += price.map_or(0.0, |price| {
            price.cost(
                response.input_tokens,
                response.output_tokens,
                response.batched,
            )
        });
    }

    /// The totals over every phase, as one line named `total`.
    pub fn total(&self) -> PhaseUsage {
        self.phases.iter().fold(
            PhaseUsage {
                phase: "total".to_owned(),
                ..PhaseUsage::default()
            },
            |mut total, line| {
                total.calls += line.calls;
                total.cache_hits += line.cache_hits;
                total.input_tokens += line.input_tokens;
                total.output_tokens += line.output_tokens;
                total.cost_usd += line.cost_usd;
                total.estimated_calls += line.estimated_calls;
                total
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_match_the_longest_prefix_and_overrides_win() {
        let table = PriceTable::list_prices();
        assert_eq!(
            table.price("gpt-4o-mini-2024-07-18"),
            Some(Price::new(0.15, 0.60))
        );
        assert_eq!(table.price("gpt-4o"), Some(Price::new(2.50, 10.00)));
        assert_eq!(table.price("smollm2"), None);
        let table = table.with("smollm2", Price::new(1.0, 2.0));
        assert_eq!(table.price("smollm2"), Some(Price::new(1.0, 2.0)));
        let price = Price::new(1.0, 2.0);
        assert!((price.cost(1_000_000, 500_000, false) - 2.0).abs() < 1e-9);
        assert!((price.cost(1_000_000, 500_000, true) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn prices_parse_from_the_command_line() {
        assert_eq!("0.15,0.60".parse::<Price>(), Ok(Price::new(0.15, 0.60)));
        assert_eq!("$3, $15".parse::<Price>(), Ok(Price::new(3.0, 15.0)));
        assert!("3".parse::<Price>().unwrap_err().contains("INPUT,OUTPUT"));
        assert!("a,-1".parse::<Price>().is_err());
    }

    #[test]
    fn the_ledger_counts_per_phase_and_hits_for_free() {
        let mut ledger = Ledger::default();
        let answer = LlmResponse {
            text: String::new(),
            input_tokens: 1_000,
            output_tokens: 100,
            estimated_usage: false,
            truncated: false,
            batched: false,
            cached: false,
        };
        let price = Some(Price::new(1.0, 10.0));
        ledger.record("write.repair", &answer, price);
        ledger.record("write.draft", &answer, price);
        ledger.record(
            "write.draft",
            &LlmResponse {
                cached: true,
                ..answer.clone()
            },
            price,
        );
        let phases: Vec<&str> = ledger
            .phases
            .iter()
            .map(|line| line.phase.as_str())
            .collect();
        assert_eq!(phases, ["write.draft", "write.repair"]);
        assert_eq!(ledger.phases[0].calls, 1);
        assert_eq!(ledger.phases[0].cache_hits, 1);
        let total = ledger.total();
        assert_eq!(total.input_tokens, 2_000);
        assert!((total.cost_usd - 0.004).abs() < 1e-9);
    }
}
