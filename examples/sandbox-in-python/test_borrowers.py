"""A lender's own tests, in Python, against the loanctl sandbox (conftest.py starts it)."""

import uuid

BORROWER = {
    "firstname": "Ada",
    "lastname": "Obi",
    "password": "a-long-password",
    "phone": "+2348012345678",
    "gender": "female",
}


def test_creates_a_borrower_and_the_sandbox_saw_it(sandbox):
    email = "ada-%s@example.com" % uuid.uuid4().hex[:8]
    status, reply = sandbox.call("POST", "/api/v1/user", {**BORROWER, "email": email})
    assert status == 200
    assert reply["status"] == "success"
    assert reply["data"]["email"] == email

    seen = [r for r in sandbox.requests(method="POST", path="/api/v1/user") if email in (r["request_body"] or "")]
    assert len(seen) == 1
    assert seen[0]["http"] == 200
    assert "a-long-password" not in seen[0]["request_body"]


def test_one_request_can_ask_for_its_own_failure(sandbox):
    status, reply = sandbox.call("GET", "/api/v1/user", headers={"Prefer": "code=503, envelope=error"})
    assert status == 503
    assert reply["status"] == "error"
    # The next request is served as usual: the failure was for that one request alone.
    status, reply = sandbox.call("GET", "/api/v1/user")
    assert status == 200
    assert reply["status"] == "success"
