// A strict, small XML well-formedness check for the SVG writer's output: one root, balanced tags, quoted attributes
// without raw '<' or stray '&', text without raw '<', only the five XML entities or numeric references.

const name = "[A-Za-z_][\\w.:-]*";
const entity = /&(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function checkEntities(s: string, where: string): void {
  const stripped = s.replace(entity, "");
  if (stripped.includes("&")) throw new Error(`stray '&' in ${where}: ${s.slice(0, 60)}`);
}

export function assertWellFormedXml(xml: string): { elements: number; root: string } {
  const stack: string[] = [];
  let root = "";
  let elements = 0;
  let i = 0;
  const tagRe = new RegExp(`^<(/?)(${name})((?:\\s+${name}\\s*=\\s*"[^"]*")*)\\s*(/?)>`);
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const textPart = lt < 0 ? xml.slice(i) : xml.slice(i, lt);
    if (textPart.length) {
      if (stack.length === 0 && textPart.trim()) throw new Error(`text outside the root: ${textPart.slice(0, 40)}`);
      if (textPart.includes(">")) throw new Error(`raw '>' in text: ${textPart.slice(0, 40)}`);
      checkEntities(textPart, "text");
    }
    if (lt < 0) break;
    const m = tagRe.exec(xml.slice(lt));
    if (!m) throw new Error(`malformed tag at ${lt}: ${xml.slice(lt, lt + 80)}`);
    const [whole, close, tag, attrs, selfClose] = m;
    for (const a of attrs!.matchAll(new RegExp(`(${name})\\s*=\\s*"([^"]*)"`, "g"))) {
      if (a[2]!.includes("<")) throw new Error(`'<' in attribute ${a[1]} of <${tag}>`);
      checkEntities(a[2]!, `attribute ${a[1]} of <${tag}>`);
    }
    const attrNames = [...attrs!.matchAll(new RegExp(`(${name})\\s*=`, "g"))].map((a) => a[1]);
    if (new Set(attrNames).size !== attrNames.length) throw new Error(`duplicate attribute in <${tag}>`);
    if (close) {
      if (selfClose || attrs) throw new Error(`bad closing tag </${tag}>`);
      const open = stack.pop();
      if (open !== tag) throw new Error(`</${tag}> closes <${open}>`);
    } else {
      elements++;
      if (stack.length === 0) {
        if (root) throw new Error(`second root element <${tag}>`);
        root = tag!;
      }
      if (!selfClose) stack.push(tag!);
    }
    i = lt + whole!.length;
  }
  if (stack.length) throw new Error(`unclosed <${stack.join("> <")}>`);
  if (!root) throw new Error("no root element");
  return { elements, root };
}
