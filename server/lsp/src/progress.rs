//! `$/progress` for one analysis, ended by its guard: however the analysis ends (finished,
//! failed, aborted, or the task panicking), the client's progress bar ends too (texlab's way).

use tower_lsp_server::ls_types::notification::Progress;
use tower_lsp_server::ls_types::request::WorkDoneProgressCreate;
use tower_lsp_server::ls_types::{
    NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressCreateParams, WorkDoneProgressEnd, WorkDoneProgressReport,
};
use tower_lsp_server::Client;

pub struct ProgressGuard {
    client: Client,
    token: Option<NumberOrString>,
    ended: bool,
    last: Option<(u32, String)>,
}

impl ProgressGuard {
    /// Creates the token (when the client supports server-initiated progress) and begins.
    pub async fn begin(client: &Client, supported: bool, token: NumberOrString, title: String) -> ProgressGuard {
        let created = supported
            && client
                .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams { token: token.clone() })
                .await
                .is_ok();
        let guard = ProgressGuard {
            client: client.clone(),
            token: created.then_some(token),
            ended: false,
            last: None,
        };
        guard
            .send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
                title,
                cancellable: Some(true),
                message: Some("queued".into()),
                percentage: Some(0),
            }))
            .await;
        guard
    }

    pub fn token(&self) -> Option<&NumberOrString> {
        self.token.as_ref()
    }

    async fn send(&self, value: WorkDoneProgress) {
        if let Some(token) = &self.token {
            self.client
                .send_notification::<Progress>(ProgressParams {
                    token: token.clone(),
                    value: ProgressParamsValue::WorkDone(value),
                })
                .await;
        }
    }

    /// Reports, unless it would repeat the last report.
    pub async fn report(&mut self, percentage: u32, message: String) {
        let now = (percentage.min(100), message);
        if self.last.as_ref() == Some(&now) {
            return;
        }
        self.send(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(true),
            message: Some(now.1.clone()),
            percentage: Some(now.0),
        }))
        .await;
        self.last = Some(now);
    }

    pub async fn end(mut self, message: String) {
        self.ended = true;
        self.send(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(message) }))
            .await;
    }
}

impl Drop for ProgressGuard {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        if let (Some(token), Ok(rt)) = (self.token.take(), tokio::runtime::Handle::try_current()) {
            let client = self.client.clone();
            rt.spawn(async move {
                client
                    .send_notification::<Progress>(ProgressParams {
                        token,
                        value: ProgressParamsValue::WorkDone(WorkDoneProgress::End(WorkDoneProgressEnd {
                            message: Some("stopped".into()),
                        })),
                    })
                    .await;
            });
        }
    }
}
