/// The style sheet and the script of the web pages, served from the binary under
/// `/web/static/` (no build step: written here as they are sent).
///
/// The pages work without the script; it adds search as you type to the people list.
enum WebAssets {
    static let stylePath = "/web/static/contacts.css"
    static let scriptPath = "/web/static/contacts.js"

    /// The asset at `path`, with its media type; `nil` for any other path.
    static func asset(at path: String) -> (type: String, text: String)? {
        switch path {
        case stylePath: ("text/css; charset=utf-8", style)
        case scriptPath: ("text/javascript; charset=utf-8", script)
        default: nil
        }
    }

    /// Colours pass WCAG AA contrast (4.5:1 and more for text) on both schemes.
    static let style = """
        :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #4a4a4a; --line: #d0d0d0;
          --accent: #0b57a4; --bad: #a4000f; font-family: system-ui, sans-serif; line-height: 1.45; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #ececec; --bg: #161616; --muted: #b8b8b8; --line: #3a3a3a; --accent: #8cc4ff; --bad: #ff9a9a; }
        }
        body { margin: 0; color: var(--fg); background: var(--bg); }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
          main:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: .5rem; top: -3rem; padding: .4rem .8rem; color: var(--fg); background: var(--bg);
          border: 2px solid var(--accent); z-index: 1; }
        .skip:focus { top: .5rem; }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        .bar { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
        .bar .home { font-weight: 600; text-decoration: none; margin-right: auto; }
        .bar form { margin: 0; }
        main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: .2rem 0 1rem; }
        label { display: block; margin: .6rem 0 .2rem; }
        input[type=text], input[type=search], input[type=password] { font: inherit; width: 100%;
          box-sizing: border-box; padding: .45rem; border: 1px solid var(--muted); border-radius: 4px;
          color: var(--fg); background: var(--bg); }
        button { font: inherit; padding: .4rem .9rem; border: 1px solid var(--accent); border-radius: 4px;
          color: var(--bg); background: var(--accent); cursor: pointer; }
        .error { color: var(--bad); }
        .muted { color: var(--muted); }
        ul.people, ul.books { list-style: none; padding: 0; margin: 0; }
        ul.people li, ul.books li { border-bottom: 1px solid var(--line); }
        ul.people a, ul.books a { display: block; padding: .55rem .2rem; text-decoration: none; }
        ul.people .detail { font-size: .9em; color: var(--muted); }
        dl.person { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: .35rem 1rem; }
        dl.person dt { color: var(--muted); }
        dl.person dd { margin: 0; white-space: pre-line; overflow-wrap: anywhere; }
        .search { margin-bottom: 1rem; }
        .count { margin: .4rem 0; }
        textarea { font: inherit; width: 100%; box-sizing: border-box; padding: .45rem; border: 1px solid var(--muted);
          border-radius: 4px; color: var(--fg); background: var(--bg); }
        fieldset.rows { border: 1px solid var(--line); border-radius: 4px; margin: 1rem 0; padding: .5rem .8rem; }
        fieldset.rows .row { display: grid; grid-template-columns: 8rem 1fr; gap: .5rem; margin: .3rem 0; }
        fieldset.rows label { margin: 0; }
        fieldset.rows .row.composite { grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); border-top: 1px solid var(--line);
          padding-top: .5rem; }
        fieldset.rows .part { display: block; font-size: .9em; color: var(--muted); }
        fieldset.rows .tools { display: flex; gap: .4rem; align-items: center; }
        fieldset.photo { border: 1px solid var(--line); border-radius: 4px; margin: 1rem 0; padding: .5rem .8rem; }
        label.check { display: flex; gap: .4rem; align-items: center; margin: .3rem 0; }
        button.secondary { color: var(--accent); background: var(--bg); padding: .2rem .6rem; }
        ul.people a { display: grid; grid-template-columns: 2.5rem 1fr; column-gap: .6rem; align-items: center; }
        ul.people .thumb { grid-row: span 2; width: 2.5rem; height: 2.5rem; border-radius: 50%; object-fit: cover; background: var(--line); }
        ul.people .detail { grid-column: 2; }
        nav.pages { display: flex; gap: 1rem; justify-content: center; padding: .8rem 0; }
        ruby rt { font-size: .5em; color: var(--muted); }
        .conflict { border: 2px solid var(--bad); border-radius: 4px; padding: .5rem 1rem; margin-bottom: 1rem; }
        .actions a { margin-right: 1rem; }
        select { font: inherit; padding: .35rem; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
        ul.people li form { display: inline; margin-left: .5rem; }
        ul.people li:has(form) { display: flex; align-items: center; justify-content: space-between; padding: .3rem .2rem; }
        ul.people li:has(form) a { display: inline; padding: 0; }
        ul.people li:has(form) .thumb { display: none; }
        img.photo { border-radius: 50%; object-fit: cover; float: right; margin-left: 1rem; }
        [aria-invalid=true] { border-color: var(--bad); }
        ol.history { list-style: none; padding: 0; margin: 0; }
        ol.history > li { border-bottom: 1px solid var(--line); padding: .5rem 0; }
        ol.history p { margin: .15rem 0; }
        ol.history .headline { font-size: .9em; overflow-wrap: anywhere; }
        ul.changes { margin: .3rem 0; padding-left: 1.2rem; overflow-wrap: anywhere; }
        fieldset.choice { border: 1px solid var(--line); border-radius: 4px; margin: .8rem 0; padding: .4rem .8rem;
          display: grid; grid-template-columns: 1fr 1fr; gap: .3rem 1rem; }
        fieldset.choice .option { display: flex; gap: .4rem; align-items: baseline; overflow-wrap: anywhere; }
        fieldset.choice .option:nth-of-type(3) { grid-column: 1 / -1; }
        fieldset.choice label { margin: 0; }
        fieldset.choice .whose { display: block; font-size: .85em; color: var(--muted); }
        fieldset.choice .value { display: inline-block; }
        @media (max-width: 30rem) { dl.person { grid-template-columns: 1fr; } dl.person dd { margin-bottom: .4rem; }
          fieldset.choice { grid-template-columns: 1fr; } }
        """

    /// Search as you type: the search form's list is replaced by the server's list for the
    /// words typed, at most one request in flight. And the next page of a long list is added
    /// below it when its link scrolls into view (the link works by itself without the script).
    static let script = """
        "use strict";
        function loadMoreWhenSeen() {
          const next = document.querySelector("#people nav.pages a[rel=next]");
          if (!next || !("IntersectionObserver" in window)) return;
          const watcher = new IntersectionObserver(async (seen) => {
            if (!seen.some((entry) => entry.isIntersecting)) return;
            watcher.disconnect();
            const url = new URL(next.href, location.href);
            url.searchParams.set("list", "1");
            try {
              const response = await fetch(url, { credentials: "same-origin" });
              if (!response.ok) return;
              const fragment = new DOMParser().parseFromString(await response.text(), "text/html");
              const list = document.querySelector("#people ul.people");
              const nav = document.querySelector("#people nav.pages");
              for (const item of fragment.querySelectorAll("ul.people > li")) list.append(document.adoptNode(item));
              const count = document.querySelector("#people .count");
              if (count) count.textContent = count.textContent.replace(/[0-9]+–[0-9]+ shown/, "1–" + list.children.length + " shown");
              const freshNav = fragment.querySelector("nav.pages");
              if (freshNav) {
                const previous = freshNav.querySelector("a[rel=prev]");
                if (previous) previous.remove();
                nav.replaceWith(document.adoptNode(freshNav));
              } else {
                nav.remove();
              }
              loadMoreWhenSeen();
            } catch (error) {
              // The link still works.
            }
          }, { rootMargin: "600px" });
          watcher.observe(next);
        }
        document.addEventListener("DOMContentLoaded", () => {
          loadMoreWhenSeen();
          const form = document.querySelector("form.search");
          if (!form || !document.getElementById("people")) return;
          const field = form.querySelector("input[type=search]");
          let pending = null;
          let latest = 0;
          field.addEventListener("input", () => {
            clearTimeout(pending);
            pending = setTimeout(async () => {
              const asked = ++latest;
              const url = new URL(form.action, location.href);
              url.searchParams.set("q", field.value);
              const group = form.querySelector("select[name=group]");
              if (group && group.value) url.searchParams.set("group", group.value);
              url.searchParams.set("list", "1");
              try {
                const response = await fetch(url, { credentials: "same-origin" });
                if (!response.ok || asked !== latest) return;
                const fragment = new DOMParser().parseFromString(await response.text(), "text/html");
                const fresh = fragment.getElementById("people");
                const shown = document.getElementById("people");
                if (fresh && shown) shown.replaceWith(fresh);
                loadMoreWhenSeen();
                history.replaceState(null, "", url.pathname + (field.value ? "?q=" + encodeURIComponent(field.value) : ""));
              } catch (error) {
                // The form still works: pressing Enter loads the page.
              }
            }, 120);
          });
        });
        """
}
