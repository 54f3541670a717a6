export default function NotFound() {
  return (
    <main>
      <h1>Not found</h1>
      <p>
        No screen at this address. <a href="/problems">Problems</a>
      </p>
    </main>
  );
}
