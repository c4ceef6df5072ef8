//! `Metered`: a provider behind the response cache, the ledger and the budget — what the
//! engine hands to a phase, so no phase can overspend or pay twice for the same answer.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::{
    Error, Ledger, LlmProvider, LlmRequest, LlmResponse, Price, PriceTable, ResponseCache, Result,
};

/// A provider wrapped with a response cache, a token and cost ledger and an optional budget.
///
/// Every call is first looked up in the cache (a hit is free and counted as such); the calls
/// left are priced at their worst case — the estimated input tokens plus `max_tokens` — and
/// refused together, before anything is sent, when that would take the spending past the
/// budget. Answers are cached, then counted at the tokens the provider reports.
pub struct Metered {
    inner: Box<dyn LlmProvider>,
    cache: Option<ResponseCache>,
    prices: PriceTable,
    budget_usd: Option<f64>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    ledger: Ledger,
    /// Dollars of the answers received.
    spent: f64,
    /// Worst-case dollars of the calls in flight.
    reserved: f64,
    /// The first failure to write the cache (answers are kept; only reuse is lost).
    cache_failure: Option<String>,
}

impl Metered {
    /// Wraps `inner`; `cache` keeps answers across runs, `budget_usd` caps new spending.
    pub fn new(
        inner: Box<dyn LlmProvider>,
        cache: Option<ResponseCache>,
        prices: PriceTable,
        budget_usd: Option<f64>,
    ) -> Metered {
        Metered {
            inner,
            cache,
            prices,
            budget_usd,
            state: Mutex::new(State::default()),
        }
    }

    /// Tokens and dollars so far, per phase.
    pub fn ledger(&self) -> Ledger {
        self.state().ledger.clone()
    }

    /// Dollars spent so far on answers received.
    pub fn spent_usd(&self) -> f64 {
        self.state().spent
    }

    /// The budget, if one is set.
    pub fn budget_usd(&self) -> Option<f64> {
        self.budget_usd
    }

    /// The price of `model`, if known.
    pub fn price(&self, model: &str) -> Option<Price> {
        self.prices.price(model)
    }

    /// The first error met writing the cache, if any (the answers were kept all the same).
    pub fn cache_failure(&self) -> Option<String> {
        self.state().cache_failure.clone()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reserves the worst case of `requests` against the budget, or says why not.
    fn reserve(&self, requests: &[&LlmRequest]) -> Result<Vec<f64>> {
        let Some(budget) = self.budget_usd else {
            return Ok(vec![0.0; requests.len()]);
        };
        let mut worst = Vec::with_capacity(requests.len());
        for request in requests {
            let price = self
                .prices
                .price(&request.model)
                .ok_or_else(|| Error::NoPrice {
                    model: request.model.clone(),
                })?;
            worst.push(price.cost(
                request.estimated_input_tokens(),
                u64::from(request.max_tokens),
                false,
            ));
        }
        let needed: f64 = worst.iter().sum();
        let mut state = self.state();
        let committed = state.spent + state.reserved;
        if committed + needed > budget {
            let suggested = ((committed + needed) * 1.2 * 100.0).ceil() / 100.0;
            return Err(Error::OverBudget {
                budget,
                spent: committed,
                needed,
                calls: requests.len(),
                model: requests
                    .first()
                    .map(|request| request.model.clone())
                    .unwrap_or_default(),
                suggested: suggested.max(budget + 0.01),
            });
        }
        state.reserved += needed;
        Ok(worst)
    }
}

impl LlmProvider for Metered {
    fn id(&self) -> String {
        self.inner.id()
    }

    fn complete(&self, request: &LlmRequest) -> Result<LlmResponse> {
        self.complete_all(std::slice::from_ref(request))
            .pop()
            .unwrap_or_else(|| {
                Err(Error::Batch {
                    provider: self.id(),
                    batch: String::new(),
                    message: "no answer came back; this is a bug in litrev".to_owned(),
                })
            })
    }

    fn complete_all(&self, requests: &[LlmRequest]) -> Vec<Result<LlmResponse>> {
        let provider = self.inner.id();
        let mut answers: Vec<Option<Result<LlmResponse>>> = Vec::with_capacity(requests.len());
        let mut missing = Vec::new();
        for (index, request) in requests.iter().enumerate() {
            let hit = self
                .cache
                .as_ref()
                .and_then(|cache| cache.get(&provider, request));
            match hit {
                Some(hit) => {
                    self.state().ledger.record(&request.phase, &hit, None);
                    answers.push(Some(Ok(hit)));
                }
                None => {
                    answers.push(None);
                    missing.push(index);
                }
            }
        }
        if !missing.is_empty() {
            let to_send: Vec<&LlmRequest> = missing.iter().map(|&index| &requests[index]).collect();
            match self.reserve(&to_send) {
                Err(refusal) => {
                    for &index in &missing {
                        answers[index] = Some(Err(refusal.clone()));
                    }
                }
                Ok(worst) => {
                    let owned: Vec<LlmRequest> =
                        to_send.iter().map(|&request| request.clone()).collect();
                    let received = self.inner.complete_all(&owned);
                    for ((&index, answer), worst) in missing.iter().zip(received).zip(worst) {
                        let request = &requests[index];
                        if let (Ok(answer), Some(cache)) = (&answer, &self.cache)
                            && let Err(error) = cache.put(&provider, request, answer)
                        {
                            self.state()
                                .cache_failure
                                .get_or_insert_with(|| error.to_string());
                        }
                        let mut state = self.state();
                        state.reserved = (state.reserved - worst).max(0.0);
                        if let Ok(answer) = &answer {
                            let price = self.prices.price(&request.model);
                            state.ledger.record(&request.phase, answer, price);
                            state.spent += price.map_or(0.0, |price| {
                                price.cost(
                                    answer.input_tokens,
                                    answer.output_tokens,
                                    answer.batched,
                                )
                            });
                        }
                        drop(state);
                        answers[index] = Some(answer);
                    }
                }
            }
        }
        answers
            .into_iter()
            .map(|answer| {
                answer.unwrap_or_else(|| {
                    Err(Error::Batch {
                        provider: provider.clone(),
                        batch: String::new(),
                        message: "the provider returned fewer answers than requests".to_owned(),
                    })
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::Message;

    struct Echo {
        calls: AtomicU64,
    }

    impl LlmProvider for Echo {
        fn id(&self) -> String {
            "echo".to_owned()
        }

        fn complete(&self, request: &LlmRequest) -> Result<LlmResponse> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            Ok(LlmResponse {
                text: request.messages[0].content.clone(),
                input_tokens: 1_000,
                output_tokens: 500,
                estimated_usage: false,
                truncated: false,
                batched: false,
                cached: false,
            })
        }
    }

    fn request(text: &str, max_tokens: u32) -> LlmRequest {
        LlmRequest {
            model: "priced".into(),
            messages: vec![Message::user(text)],
            max_tokens,
            temperature: 0.0,
            schema: None,
            prompt: "p.v1".into(),
            phase: "write.draft".into(),
        }
    }

    fn metered(budget: Option<f64>, cache: Option<ResponseCache>) -> Metered {
        Metered::new(
            Box::new(Echo {
                calls: AtomicU64::new(0),
            }),
            cache,
            PriceTable::list_prices().with("priced", Price::new(1.0, 2.0)),
            budget,
        )
    }

    #[test]
    fn counts_spending_and_refuses_the_call_that_would_overspend() {
        // Each answer costs $0.001 + $0.001; the worst case of a 1,000-token answer is ~$0.002.
        let llm = metered(Some(0.005), None);
        let answers = llm.complete_all(&[request("a", 1_000), request("b", 1_000)]);
        assert!(answers.iter().all(Result::is_ok));
        assert!((llm.spent_usd() - 0.004).abs() < 1e-9);
        let error = llm.complete(&request("c", 1_000)).unwrap_err();
        let Error::OverBudget { spent, budget, .. } = &error else {
            panic!("{error}");
        };
        assert!((spent - 0.004).abs() < 1e-9 && (budget - 0.005).abs() < 1e-9);
        let message = error.to_string();
        assert!(message.contains("Raise --budget"), "{message}");
        assert!(message.contains("$0.0040 of $0.0050"), "{message}");
        assert_eq!(llm.ledger().total().calls, 2);
    }

    #[test]
    fn unpriced_models_cannot_run_under_a_budget() {
        let llm = metered(Some(1.0), None);
        let error = llm
            .complete(&LlmRequest {
                model: "local".into(),
                ..request("a", 10)
            })
            .unwrap_err();
        assert!(matches!(error, Error::NoPrice { .. }), "{error}");
        assert!(error.to_string().contains("--llm-price"));
        let free = metered(None, None);
        assert!(
            free.complete(&LlmRequest {
                model: "local".into(),
                ..request("a", 10)
            })
            .is_ok()
        );
    }

    #[test]
    fn cached_answers_are_free_and_not_sent_again() {
        let folder = tempfile::tempdir().unwrap();
        let llm = metered(Some(0.003), Some(ResponseCache::new(folder.path())));
        llm.complete(&request("a", 1_000)).unwrap();
        // Over budget for a new call, but the same call is answered from the cache.
        let again = llm.complete(&request("a", 1_000)).unwrap();
        assert!(again.cached);
        let total = llm.ledger().total();
        assert_eq!((total.calls, total.cache_hits), (1, 1));
        assert!(llm.complete(&request("b", 1_000)).is_err());
    }
}
