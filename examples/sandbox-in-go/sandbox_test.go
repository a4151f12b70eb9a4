// A lender's own tests, in Go, against the loanctl sandbox: TestMain starts it in the background
// (`loanctl sandbox start --detach --port 0 -o json`), reads the URL and keys it prints, and stops
// it when the tests are done. LOANCTL names the command (default: loanctl on PATH).
package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

type started struct {
	URL        string `json:"url"`
	APIKey     string `json:"api_key"`
	ProductID  int    `json:"product_id"`
	ControlKey string `json:"control_key"`
}

var sandbox started

func loanctl(args ...string) ([]byte, error) {
	command := strings.Fields(os.Getenv("LOANCTL"))
	if len(command) == 0 {
		command = []string{"loanctl"}
	}
	cmd := exec.Command(command[0], append(command[1:], args...)...)
	cmd.Stderr = os.Stderr
	return cmd.Output()
}

func TestMain(m *testing.M) {
	dataDir, err := os.MkdirTemp("", "loanctl-go-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := loanctl("sandbox", "start", "--detach", "--port", "0", "--no-profile", "--data-dir", dataDir, "-o", "json")
	if err == nil {
		err = json.Unmarshal(out, &sandbox)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "could not start the sandbox:", err)
		os.Exit(1)
	}
	code := m.Run()
	loanctl("sandbox", "stop", "--data-dir", dataDir)
	os.Exit(code)
}

var client = &http.Client{Timeout: 30 * time.Second}

func call(t *testing.T, method, path string, body any, headers map[string]string) (int, map[string]any) {
	t.Helper()
	var payload bytes.Buffer
	if body != nil {
		json.NewEncoder(&payload).Encode(body)
	}
	request, _ := http.NewRequest(method, sandbox.URL+path, &payload)
	request.Header.Set("Authorization", "Bearer "+sandbox.APIKey)
	request.Header.Set("Content-Type", "application/json")
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	reply, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer reply.Body.Close()
	var envelope map[string]any
	json.NewDecoder(reply.Body).Decode(&envelope)
	return reply.StatusCode, envelope
}

// What the sandbox received, oldest first.
func requests(t *testing.T, match url.Values) []map[string]any {
	t.Helper()
	request, _ := http.NewRequest("GET", sandbox.URL+"/__sandbox/requests?"+match.Encode(), nil)
	request.Header.Set("Authorization", "Bearer "+sandbox.ControlKey)
	reply, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer reply.Body.Close()
	var envelope struct {
		Data []map[string]any `json:"data"`
	}
	json.NewDecoder(reply.Body).Decode(&envelope)
	return envelope.Data
}

func TestCreatesABorrowerAndTheSandboxSawIt(t *testing.T) {
	email := fmt.Sprintf("go-%d@example.com", time.Now().UnixNano())
	status, reply := call(t, "POST", "/api/v1/user", map[string]string{
		"firstname": "Ada", "lastname": "Obi", "email": email, "password": "a-long-password",
		"phone": "+2348012345678", "gender": "female",
	}, nil)
	if status != 200 || reply["status"] != "success" {
		t.Fatalf("create user: HTTP %d %v", status, reply)
	}
	seen := 0
	for _, r := range requests(t, url.Values{"method": {"POST"}, "path": {"/api/v1/user"}}) {
		if body, _ := r["request_body"].(string); strings.Contains(body, email) {
			seen++
			if strings.Contains(body, "a-long-password") {
				t.Errorf("the log shows the password: %s", body)
			}
		}
	}
	if seen != 1 {
		t.Fatalf("the sandbox received %d such requests, want 1", seen)
	}
}

func TestOneRequestCanAskForItsOwnFailure(t *testing.T) {
	status, reply := call(t, "GET", "/api/v1/user", nil, map[string]string{"Prefer": "code=503, envelope=error"})
	if status != 503 || reply["status"] != "error" {
		t.Fatalf("with Prefer: HTTP %d %v, want 503 and an error envelope", status, reply)
	}
	if status, _ := call(t, "GET", "/api/v1/user", nil, nil); status != 200 {
		t.Fatalf("the next request: HTTP %d, want 200", status)
	}
}
