package modeladapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"time"
)

// The judges speak to the OpenAI and Anthropic APIs through the small
// client below, on net/http, rather than through the providers' official
// Go SDKs (github.com/openai/openai-go/v3 v3.98.0 and
// github.com/anthropics/anthropic-sdk-go/v2 v2.15.0), which docscore used
// before. Go runs the init of every package a binary links, whatever the
// command: the two SDKs added 35 MB to the binary (OpenAI 23 MB,
// Anthropic 8.4 MB, measured as blank imports beside net/http and cobra)
// and about 2 ms of package init to every start, "docscore --version"
// included, for the handful of requests below. The SDKs stay the
// reference in the tests: sdk_test.go sends the same requests through
// them and asserts that the bodies, headers and parsed answers are the
// same (TestWireMatchesTheSDKs).

// anthropicVersion is the anthropic-version header, the Messages API
// version of anthropic-sdk-go v2.15.0 (whose output_config this sends).
const anthropicVersion = "2026-10-21"

// apiClient sends one provider's requests: JSON bodies, the provider's
// credential headers, every response body capped (cappedClient), and a
// status of 400 or more turned into an *HTTPError.
type apiClient struct {
	provider string
	client   *http.Client
	base     string // ends in "/"
	// auth sets the credential and version headers.
	auth func(h http.Header)
	// message is the HTTPError message of an error body's "error" member.
	message func(e apiErrorBody) string
}

// apiErrorBody is the "error" member of both providers' error bodies.
type apiErrorBody struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func newOpenAIClient(cfg Config, base string) *apiClient {
	return &apiClient{provider: "openai", client: cfg.httpClient(), base: base,
		auth:    func(h http.Header) { h.Set("Authorization", "Bearer "+cfg.APIKey) },
		message: func(e apiErrorBody) string { return e.Message },
	}
}

func newAnthropicClient(cfg Config, base string) *apiClient {
	return &apiClient{provider: "anthropic", client: cfg.httpClient(), base: base,
		auth: func(h http.Header) {
			// anthropic-sdk-go v2's WithAPIKey sends the key as a
			// bearer token, not as x-api-key.
			h.Set("Authorization", "Bearer "+cfg.APIKey)
			h.Set("Anthropic-Version", anthropicVersion)
		},
		message: func(e apiErrorBody) string {
			if e.Type != "" && e.Message != "" {
				return e.Type + ": " + e.Message
			}
			return e.Message
		},
	}
}

// send makes one request and returns the response of a status under 400
// (its body for the caller to read and close); transport errors are
// prefixed with the provider.
func (c *apiClient) send(ctx context.Context, method, path, contentType string, body []byte, accept string) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.provider, err)
	}
	c.auth(req.Header)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.provider, err)
	}
	if resp.StatusCode < 400 {
		return resp, nil
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.provider, err)
	}
	var e struct {
		Error apiErrorBody `json:"error"`
	}
	json.Unmarshal(data, &e) // a body that is not JSON leaves no message
	return nil, &HTTPError{Provider: c.provider, Status: resp.StatusCode, Message: c.message(e.Error), RetryAfter: parseRetryAfter(resp.Header, time.Now())}
}

// do sends in (nil: no body) as JSON and decodes the answer into out.
func (c *apiClient) do(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	contentType := ""
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("%s: %w", c.provider, err)
		}
		body, contentType = b, "application/json"
	}
	resp, err := c.send(ctx, method, path, contentType, body, "")
	if err != nil {
		return err
	}
	return c.decode(resp, out)
}

// decode reads a JSON answer into out and closes its body.
func (c *apiClient) decode(resp *http.Response, out any) error {
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", c.provider, err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: the answer is not the expected JSON: %w", c.provider, err)
	}
	return nil
}

// upload sends a file as multipart/form-data (the OpenAI Files API): the
// fields, then the file part.
func (c *apiClient) upload(ctx context.Context, path string, fields [][2]string, name, mediaType string, data []byte, out any) error {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
	h.Set("Content-Type", mediaType)
	part, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	part.Write(data)
	if err := w.Close(); err != nil {
		return err
	}
	resp, err := c.send(ctx, http.MethodPost, path, w.FormDataContentType(), buf.Bytes(), "")
	if err != nil {
		return err
	}
	return c.decode(resp, out)
}

// pathSegment escapes an id for a URL path.
func pathSegment(id string) string { return url.PathEscape(id) }

// The OpenAI Responses API request (POST /v1/responses), its members in
// the order the SDK wrote them.
type openAIRequest struct {
	Instructions    string           `json:"instructions"`
	MaxOutputTokens int64            `json:"max_output_tokens,omitempty"`
	Store           bool             `json:"store"`
	Temperature     *float64         `json:"temperature,omitempty"`
	Input           []openAIMessage  `json:"input"`
	Model           string           `json:"model"`
	Reasoning       *openAIReasoning `json:"reasoning,omitempty"`
	Text            openAIText       `json:"text"`
}

type openAIMessage struct {
	Content []openAIPart `json:"content"`
	Role    string       `json:"role"`
}

// openAIPart is an input_text, input_image or input_file content part.
type openAIPart struct {
	Detail   string  `json:"detail,omitempty"`
	FileData string  `json:"file_data,omitempty"`
	Filename string  `json:"filename,omitempty"`
	ImageURL string  `json:"image_url,omitempty"`
	Text     *string `json:"text,omitempty"`
	Type     string  `json:"type"`
}

type openAIReasoning struct {
	Effort string `json:"effort"`
}

type openAIText struct {
	Format openAIFormat `json:"format"`
}

type openAIFormat struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
	Strict bool           `json:"strict"`
	Type   string         `json:"type"`
}

// openAIAnswer is what docscore reads of a Responses API object.
type openAIAnswer struct {
	Model  string `json:"model"`
	Status string `json:"status"`
	Output []struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"output"`
	Usage struct {
		InputTokens        int64 `json:"input_tokens"`
		InputTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokens        int64 `json:"output_tokens"`
		OutputTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
		TotalTokens int64 `json:"total_tokens"`
	} `json:"usage"`
}

// outputText is the text of every output_text part, in order (the SDK's
// Response.OutputText).
func (r *openAIAnswer) outputText() string {
	var b bytes.Buffer
	for _, item := range r.Output {
		for _, c := range item.Content {
			if c.Type == "output_text" {
				b.WriteString(c.Text)
			}
		}
	}
	return b.String()
}

// openAIBatch is what docscore reads of a Batch object.
type openAIBatch struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	OutputFileID  string `json:"output_file_id"`
	ErrorFileID   string `json:"error_file_id"`
	ExpiresAt     int64  `json:"expires_at"`
	RequestCounts struct {
		Total     int64 `json:"total"`
		Completed int64 `json:"completed"`
		Failed    int64 `json:"failed"`
	} `json:"request_counts"`
	Errors struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Line    int64  `json:"line"`
		} `json:"data"`
	} `json:"errors"`
}

// The Anthropic Messages API request (POST /v1/messages), its members in
// the order the SDK wrote them.
type anthropicRequest struct {
	MaxTokens    int64              `json:"max_tokens"`
	Messages     []anthropicMessage `json:"messages"`
	Model        string             `json:"model"`
	OutputConfig anthropicOutput    `json:"output_config"`
	System       []anthropicBlock   `json:"system"`
}

type anthropicMessage struct {
	Content []anthropicBlock `json:"content"`
	Role    string           `json:"role"`
}

// anthropicBlock is a text, image or document block.
type anthropicBlock struct {
	Source *anthropicSource `json:"source,omitempty"`
	Text   *string          `json:"text,omitempty"`
	Type   string           `json:"type"`
}

type anthropicSource struct {
	Data      string `json:"data"`
	MediaType string `json:"media_type"`
	Type      string `json:"type"`
}

type anthropicOutput struct {
	Effort string          `json:"effort,omitempty"`
	Format anthropicFormat `json:"format"`
}

type anthropicFormat struct {
	Schema map[string]any `json:"schema"`
	Type   string         `json:"type"`
}

func inputTextPart(s string) openAIPart { return openAIPart{Text: &s, Type: "input_text"} }

func textBlock(s string) anthropicBlock { return anthropicBlock{Text: &s, Type: "text"} }

func sourceBlock(typ, mediaType, data string) anthropicBlock {
	return anthropicBlock{Source: &anthropicSource{Data: data, MediaType: mediaType, Type: "base64"}, Type: typ}
}

// anthropicBatchRequest is the Message Batches create request.
type anthropicBatchRequest struct {
	Requests []anthropicBatchItem `json:"requests"`
}

type anthropicBatchItem struct {
	CustomID string           `json:"custom_id"`
	Params   anthropicRequest `json:"params"`
}

// anthropicAnswer is what docscore reads of a Message.
type anthropicAnswer struct {
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// anthropicBatch is what docscore reads of a Message Batch.
type anthropicBatch struct {
	ID                string `json:"id"`
	ProcessingStatus  string `json:"processing_status"`
	ExpiresAt         string `json:"expires_at"`
	CancelInitiatedAt string `json:"cancel_initiated_at"`
	RequestCounts     struct {
		Processing int64 `json:"processing"`
		Succeeded  int64 `json:"succeeded"`
		Errored    int64 `json:"errored"`
		Canceled   int64 `json:"canceled"`
		Expired    int64 `json:"expired"`
	} `json:"request_counts"`
}

// anthropicResult is one line of a Message Batch's results.
type anthropicResult struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message anthropicAnswer `json:"message"`
		Error   struct {
			Error apiErrorBody `json:"error"`
		} `json:"error"`
	} `json:"result"`
}
