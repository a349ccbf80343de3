"""Random JSON thrown at every tool: never an exception, always a clean error or a valid result."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from insightshop.mcp.tools_registry import get_tool_definition, tool_names
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.admin_helpers import make_admin
from tests.mcp.tool_cases import shop

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12,
)


def argument_sets(name: str):
    properties = list(get_tool_definition(name)["input_schema"].get("properties", {}))
    keys = st.sampled_from(properties) if properties else st.text(max_size=8)
    return st.one_of(json_values, st.dictionaries(keys | st.text(max_size=8), json_values, max_size=6))


def test_random_arguments_to_every_tool_give_clean_results(app):
    shop()
    actors = [Actor(), Actor(guest_id="fuzz-guest"), Actor(user=make_admin())]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def fuzz(data):
        name = data.draw(st.sampled_from(tool_names() + ["not_a_tool"]))
        arguments = data.draw(argument_sets(name) if name != "not_a_tool" else json_values)
        actor = data.draw(st.sampled_from(actors))
        result = run_tool(name, arguments, actor)
        assert set(result) in ({"ok", "data"}, {"ok", "error"})
        if result["ok"]:
            schema = get_tool_definition(name)["output_schema"]
            assert not list(Draft202012Validator(schema).iter_errors(result["data"]))
        else:
            assert isinstance(result["error"]["code"], str) and result["error"]["message"]
            assert result["error"]["code"] != "internal_error", (name, arguments, result)

    fuzz()
