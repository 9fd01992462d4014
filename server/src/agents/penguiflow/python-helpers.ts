/**
 * The fixed part of catalog.py: template filling, http calls with httpx and llm calls with the openai
 * package, as Waddle's http and llm tools make them. No spec text here; the tools pass their impl as data.
 */
export const PYTHON_HELPERS = `
_PLACEHOLDER = re.compile(r"\\{\\{\\s*([A-Za-z_$][\\w$]*(?:\\.[\\w$]+|\\[\\d+\\])*)\\s*\\}\\}")
_URL_PLACEHOLDER = re.compile(r"\\{([A-Za-z_][\\w]*(?:\\.[\\w]+|\\[\\d+\\])*)\\}")


def _get_path(root: Any, path: str) -> Any:
    current = root
    for segment in re.findall(r"[^.\\[\\]]+", path):
        if isinstance(current, list) and segment.isdigit() and int(segment) < len(current):
            current = current[int(segment)]
        elif isinstance(current, dict) and segment in current:
            current = current[segment]
        else:
            return None
    return current


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _render(template: Any, scope: dict[str, Any]) -> Any:
    """Waddle's templates: a string that is one {{path}} becomes the value; others interpolate as text."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template.strip())
        if whole:
            return _get_path(scope, whole.group(1))
        return _PLACEHOLDER.sub(lambda match: _as_text(_get_path(scope, match.group(1))), template)
    if isinstance(template, list):
        return [_render(entry, scope) for entry in template]
    if isinstance(template, dict):
        return {key: _render(value, scope) for key, value in template.items()}
    return template


def _secret(name: str) -> str:
    value = os.environ.get("WADDLE_SECRET_" + name)
    if value is None:
        raise RuntimeError("Set WADDLE_SECRET_" + name + " in the environment.")
    return value


async def _call_http(impl: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """The call a Waddle http tool makes: URL placeholders from args, secret headers from the environment."""
    url = _URL_PLACEHOLDER.sub(lambda match: quote(_as_text(_get_path(args, match.group(1))), safe=""), impl["url"])
    params: dict[str, str] = {}
    for key, value in impl.get("query", {}).items():
        whole = _URL_PLACEHOLDER.fullmatch(value)
        if whole and _get_path(args, whole.group(1)) is None:
            continue
        params[key] = _URL_PLACEHOLDER.sub(lambda match: _as_text(_get_path(args, match.group(1))), value)
    headers = {
        key: (value if isinstance(value, str) else _secret(value["secret"]))
        for key, value in impl.get("headers", {}).items()
    }
    body = impl.get("body", "args")
    method = impl.get("method", "GET")
    content: Any = None
    if body == "args" and method not in ("GET", "DELETE"):
        content = args
    elif isinstance(body, dict):
        content = _render(body, {"args": args, **args})
    timeout = (impl.get("timeoutMs") or 30000) / 1000
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
        response = await client.request(method, url, params=params, headers=headers, json=content)
    response.raise_for_status()
    try:
        data = response.json()
    except ValueError:
        return {"status": response.status_code, "body": response.text}
    return data if isinstance(data, dict) else {"status": response.status_code, "body": data}


async def _call_llm(tool: dict[str, Any], args: dict[str, Any], default_llm: dict[str, Any]) -> dict[str, Any]:
    """The call a Waddle llm tool makes: one JSON object matching the tool's out schema."""
    llm = tool["impl"].get("llm") or default_llm
    client = AsyncOpenAI(
        api_key=os.environ.get(llm.get("apiKeyEnv") or "OPENAI_API_KEY"),
        base_url=llm.get("baseUrl") or os.environ.get("OPENAI_BASE_URL"),
    )
    instructions = (
        "You are the tool " + json.dumps(tool["name"]) + (": " + tool["desc"] if tool["desc"] else "") + ".\\n"
        "Reply with exactly one JSON object and nothing else (no prose, no code fence). "
        "It must match this JSON Schema:\\n" + json.dumps(tool["outSchema"])
    )
    prompt = _as_text(_render(tool["impl"]["prompt"], {"args": args}))
    reply = await client.chat.completions.create(
        model=llm["model"],
        temperature=llm.get("temperature", 0),
        response_format={"type": "json_object"},
        messages=[{"role": "system", "content": instructions}, {"role": "user", "content": prompt}],
    )
    answer = json.loads(reply.choices[0].message.content or "{}")
    if not isinstance(answer, dict):
        raise ValueError("The model did not answer with a JSON object.")
    return answer
`;
